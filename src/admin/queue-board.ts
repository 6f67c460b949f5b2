import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { getQueueToken } from '@nestjs/bull';
import type { INestApplication } from '@nestjs/common';
import type { Queue } from 'bull';
import type { Application, NextFunction, Request, Response } from 'express';
import { errorData } from '../common/errors/error-statuses';
import { isOperatorKey } from '../common/http/bearer';
import { QUEUE_MODE, type QueueMode } from '../queue/queue.module';
import { ALL_QUEUES } from '../contracts/queues';

export const QUEUE_BOARD_PATH = '/admin/queues';
const BOARD_USER = 'admin';

/** The `user:password` of an HTTP Basic `Authorization` header, or null. */
export function basicCredentials(
  header: string | undefined,
): { user: string; password: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** HTTP Basic with user `admin` and the operator key as password; 401 otherwise (also without an operator key). */
export function boardAuth(adminKey: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const credentials = basicCredentials(req.headers.authorization);
    if (
      adminKey &&
      credentials?.user === BOARD_USER &&
      isOperatorKey(credentials.password, adminKey)
    )
      return next();
    res.status(401).set('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"').json({
      success: false,
      message: 'Queue dashboard: sign in as admin with the operator key',
      data: errorData(401, null),
    });
  };
}

/**
 * The page without `<link>`/`<script>` tags that load from another host. Bull Board's template links
 * its fonts from Google Fonts: an operator's browser would tell a third party each time it opens
 * the board, and the page waits on the internet. Its stylesheet falls back to the system fonts.
 */
export function withoutExternalAssets(html: string): string {
  return html
    .replace(/<link\b[^>]*\bhref=["'](?:https?:)?\/\/[^"']*["'][^>]*>\s*/gi, '')
    .replace(/<script\b[^>]*\bsrc=["'](?:https?:)?\/\/[^"']*["'][^>]*>\s*<\/script>\s*/gi, '');
}

type RenderEngine = (
  path: string,
  options: object,
  done: (error: Error | null, html?: string) => void,
) => void;

/** Bull Board at `/admin/queues` over every queue, when the queues live on Redis. */
export function mountQueueBoard(app: INestApplication, adminKey: string | null): void {
  if (app.get<QueueMode>(QUEUE_MODE) !== 'redis') return;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: ALL_QUEUES.map(
      (name) => new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false })),
    ),
    serverAdapter,
  });
  // Express keeps registered engines by extension; wrap the one Bull Board set up.
  const board = serverAdapter.getRouter() as Application & {
    engines: Record<string, RenderEngine>;
  };
  const render = board.engines['.ejs'];
  board.engine('ejs', (path, options, done) =>
    render(path, options, (error, html) =>
      done(error, html === undefined ? html : withoutExternalAssets(html)),
    ),
  );
  app.use(QUEUE_BOARD_PATH, boardAuth(adminKey), board);
}
