import type { NextFunction, Request, Response } from 'express';
import { currentRequest, requestContext } from './request-context';

describe(requestContext.name, () => {
  const seenBy = (method: string): Request | undefined => {
    const req = { method } as Request;
    let seen: Request | undefined;
    const next: NextFunction = () => {
      seen = currentRequest();
    };
    requestContext(req, {} as Response, next);
    return seen;
  };

  it('makes a write reachable from what it runs (audit entries, If-Match)', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(seenBy(method)?.method).toBe(method);
  });

  it('opens no context for a read: it changes nothing, and a context costs every promise it makes', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(seenBy(method)).toBeUndefined();
  });
});
