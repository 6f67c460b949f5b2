import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_ENVELOPE } from '../envelope/openapi-error-responses';
import { IF_MATCH, IF_NONE_MATCH } from './etag.decorator';

type Operation = {
  parameters?: { name?: string; in?: string }[];
  responses: Record<string, { description?: string; headers?: Record<string, object> }>;
};

const ETAG_HEADER = {
  description:
    "Strong entity tag of the record's details: send it back in `If-None-Match` (GET) or `If-Match` (PATCH, DELETE).",
  schema: { type: 'string', example: '"nP5ZbJx0aQm3J1o6X8Gd2cQmXwE4l7sR"' },
};

const hasHeader = (operation: Operation, name: string) =>
  (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === name);

/**
 * Documents the ETag routes (marked by their `If-None-Match` or `If-Match` header, see `ETagged`):
 * the `ETag` response header of details and update, the 304 of a details GET and the 412 of a
 * stale `If-Match` (given the error envelope afterwards, with the other error statuses).
 */
export function documentETags(document: OpenAPIObject): OpenAPIObject {
  const ref = { $ref: `#/components/schemas/${ERROR_ENVELOPE}` };
  for (const item of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(item as Record<string, unknown>)) {
      const operation = value as Operation;
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const details = hasHeader(operation, IF_NONE_MATCH);
      const guarded = hasHeader(operation, IF_MATCH);
      if (!details && !guarded) continue;
      if (details || method === 'patch') {
        for (const [status, response] of Object.entries(operation.responses))
          if (status.startsWith('2')) response.headers = { ...response.headers, ETag: ETAG_HEADER };
      }
      if (details) {
        operation.responses['304'] = {
          description: '`If-None-Match` names the current ETag: not modified, no body',
          headers: { ETag: ETAG_HEADER },
        };
      }
      if (guarded) {
        operation.responses['412'] ??= {
          description: '`If-Match` names an ETag the record no longer has; nothing was written',
          content: { 'application/json': { schema: ref } },
        } as never;
      }
    }
  }
  return document;
}
