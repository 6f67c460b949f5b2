import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
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

type RoutedRequest = IncomingMessage & {
  baseUrl?: string;
  originalUrl?: string;
  route?: { path?: unknown };
};

/** The route template Express matched (`/assistant/details/:id`), never the raw URL (unbounded labels). */
export function routeTemplate(req: RoutedRequest): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : '(unmatched)';
}

export interface ServiceLogOptions {
  level: string;
  format: LogFormat;
  /** Called once per finished request with its route template, status and duration in seconds. */
  observe: (method: string, route: string, status: number, seconds: number) => void;
  /** Where JSON lines go (tests); stdout by default. */
  destination?: DestinationStream;
}

/** Express-style middleware. */
export type AccessLog = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * The process's one pino logger, and the HTTP access log written through it.
 *
 * The access log is an Express middleware mounted by `configureApp`. Per request it sets the
 * request id (`X-Request-Id`: the client's when it is a plain token, else a new UUID), and once
 * the response is finished (or the connection closed) writes one line, `request completed` (or
 * `request errored` for a 5xx), with `req: {id, method, url}`, `res: {statusCode}` and
 * `responseTime` in ms, and records the request in the duration histogram; `/health` is neither
 * logged nor recorded. `req.log` is the request's own logger (its lines carry the same `req`),
 * made on first use: most requests never log through it.
 *
 * No AsyncLocalStorage context is opened here: on Node 20 one `AsyncLocalStorage.run` turns on
 * promise hooks for the whole process, and every promise of every request then pays for them.
 * JSON lines leave through an asynchronous stdout writer: a request does not wait for its
 * access-log write, lines written while one is in flight go out in one write, and pino flushes
 * what is pending when the process exits.
 */
export class ServiceLog {
  readonly root: Logger;
  readonly accessLog: AccessLog;

  constructor({ level, format, observe, destination }: ServiceLogOptions) {
    const options = { level, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } };
    const pretty = format === 'pretty' && !destination;
    const out = pretty ? null : (destination ?? pino.destination({ dest: 1, sync: false }));
    this.root = out ? pino(options, out) : pino({ ...options, transport: PRETTY_LOGS });
    const root = this.root;
    // The access line is built here from the id, method, URL, status and time, so no header can
    // reach it: it skips the redaction pass every other line takes (same stream, same format).
    const lines = out ? pino({ level }, out) : root;
    this.accessLog = (req: RoutedRequest, res, next) => {
      const started = performance.now();
      const sent = req.headers['x-request-id'];
      const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
      res.setHeader('X-Request-Id', id);
      Object.assign(req, { id });
      const bindings = { req: { id, method: req.method, url: req.originalUrl ?? req.url } };
      let log: Logger | undefined;
      Object.defineProperty(req, 'log', {
        configurable: true,
        enumerable: true,
        get: () => (log ??= root.child(bindings)),
        set: (value: Logger) => (log = value),
      });
      if (req.url?.startsWith('/health') === true) return next();
      let done = false;
      const finished = () => {
        if (done) return;
        done = true;
        res.off('finish', finished);
        res.off('close', finished);
        const status = res.statusCode;
        observe(
          req.method ?? 'GET',
          routeTemplate(req),
          status,
          (performance.now() - started) / 1000,
        );
        const line = {
          ...bindings,
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        };
        if (status >= 500)
          lines.info(
            { ...line, err: new Error(`failed with status code ${status}`) },
            'request errored',
          );
        else lines.info(line, 'request completed');
      };
      res.on('finish', finished);
      res.on('close', finished);
      next();
    };
  }
}
