import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { LogFormat } from '../../config/env.validation';

/** Header names whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** `LOG_FORMAT=pretty`: one readable line per entry, local time, the Nest context first. */
const PRETTY_LOGS = {
  target: 'pino-pretty',
  options: {
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  },
};

/** When the access log first saw the request (performance.now()), for the duration histogram. */
const STARTED = Symbol('startedAt');

type TimedRequest = IncomingMessage & {
  [STARTED]?: number;
  baseUrl?: string;
  route?: { path?: unknown };
};

/** The route template Express matched (`/assistant/details/:id`), never the raw URL (unbounded labels). */
export function routeTemplate(req: TimedRequest): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : '(unmatched)';
}

export interface ServiceLogOptions {
  level: string;
  format: LogFormat;
  /** Called once per finished request with its route template, status and duration in seconds. */
  observe: (method: string, route: string, status: number, seconds: number) => void;
}

/**
 * The process's one pino logger, and the HTTP access log written through it.
 *
 * The access log is plain pino-http, mounted as an Express middleware by `configureApp`. It binds
 * each request's id to `req.log`, which code handling the request logs through, so no
 * AsyncLocalStorage context is opened per request: on Node 20 one `AsyncLocalStorage.run` turns
 * on promise hooks for the whole process, and every promise of every request then pays for them.
 *
 * JSON lines leave through an asynchronous stdout writer: a request does not wait for its
 * access-log write, lines written while one is in flight go out in one write, and pino flushes
 * what is pending when the process exits.
 */
export class ServiceLog {
  readonly root: Logger;
  readonly accessLog: HttpLogger;

  constructor({ level, format, observe }: ServiceLogOptions) {
    const options = { level, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } };
    this.root =
      format === 'pretty'
        ? pino({ ...options, transport: PRETTY_LOGS })
        : pino(options, pino.destination({ dest: 1, sync: false }));
    this.accessLog = pinoHttp({
      logger: this.root,
      genReqId: (req: TimedRequest, res: ServerResponse) => {
        req[STARTED] = performance.now();
        const sent = req.headers['x-request-id'];
        const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Called once per finished request, whatever the log level: the one place that also
      // records the request in the duration histogram.
      customLogLevel: (req: TimedRequest, res: ServerResponse) => {
        const started = req[STARTED];
        if (started !== undefined)
          observe(
            req.method ?? 'GET',
            routeTemplate(req),
            res.statusCode,
            (performance.now() - started) / 1000,
          );
        return 'info';
      },
      autoLogging: {
        ignore: (req: IncomingMessage) => req.url?.startsWith('/health') === true,
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    });
  }
}
