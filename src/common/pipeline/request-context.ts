import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

const storage = new AsyncLocalStorage<Request>();

/** Methods that change nothing: no audit entry, no `If-Match`, so no context to carry. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Express middleware: the rest of the request (guards, interceptors, handler, services) runs with
 * the request reachable through `currentRequest()`. Services read from it what belongs to the
 * request rather than to their arguments: who is calling (audit entries), the request id, and
 * the `If-Match` precondition checked inside a write's transaction.
 */
export function requestContext(req: Request, _res: Response, next: NextFunction): void {
  if (READS.has(req.method)) next();
  else storage.run(req, next);
}

/** The request being served, or undefined outside one (jobs, CLI, tests calling services). */
export function currentRequest(): Request | undefined {
  return storage.getStore();
}
