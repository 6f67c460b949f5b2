import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { NotModifiedResponse } from '../errors/replayed-response';
import { etagOf, noneMatchHits } from './etag';

export const IF_NONE_MATCH = 'If-None-Match';
export const IF_MATCH = 'If-Match';

/** Metadata of a route whose answer carries an `ETag` (read by `RequestInterceptor`). */
export const ETAGGED = 'etag:tagged';

/**
 * Sets `ETag` (the hash of the body the route returns, before the envelope) on the answer of
 * `data$`, and answers a GET whose `If-None-Match` names it with 304 and no body.
 */
export function withETag(req: Request, res: Response, data$: Observable<unknown>): Observable<unknown> {
  return data$.pipe(
    map((data: unknown) => {
      const etag = etagOf(data);
      if (req.method === 'GET' && noneMatchHits(req.headers['if-none-match'], etag))
        throw new NotModifiedResponse(etag);
      res.setHeader('ETag', etag);
      return data;
    }),
  );
}

/**
 * A route of a record with an ETag. `details`: answers `ETag`, and 304 to a matching
 * `If-None-Match`. `update`: answers the new `ETag` and honours `If-Match`. `delete`: honours
 * `If-Match`. The service checks `If-Match` in the write's transaction (`assertIfMatch`); this
 * decorator marks the route for `RequestInterceptor`, which sets the header (`withETag`), and documents it
 * (see `documentETags`).
 */
export function ETagged(route: 'details' | 'update' | 'delete'): MethodDecorator {
  const precondition =
    route === 'details'
      ? ApiHeader({
          name: IF_NONE_MATCH,
          required: false,
          description:
            'An ETag of an earlier answer: when the record still has it, the answer is 304 with no body.',
          schema: { type: 'string' },
        })
      : ApiHeader({
          name: IF_MATCH,
          required: false,
          description:
            'The ETag the record had when it was read: when it has changed since, nothing is written and ' +
            'the answer is 412. Checked in the same transaction as the write.',
          schema: { type: 'string' },
        });
  return route === 'delete'
    ? applyDecorators(precondition)
    : applyDecorators(precondition, SetMetadata(ETAGGED, true));
}
