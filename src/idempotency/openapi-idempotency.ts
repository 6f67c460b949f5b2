import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_ENVELOPE } from '../common/envelope/openapi-error-responses';
import { IDEMPOTENCY_HEADER } from './idempotency.interceptor';

type Operation = {
  security?: Record<string, unknown>[];
  parameters?: object[];
  responses: Record<string, { description?: string; headers?: Record<string, object> }>;
};

const KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first final response (2xx or 4xx) to this key is kept 24 h and sent ' +
    'again, with `Idempotent-Replayed: true`, to a retry of the same request (method, path, body). ' +
    'The key with another request is 422; while the first request runs, 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

const REPLAYED_HEADER = {
  description: '`true` when this is the kept response to an earlier request with the same key.',
  schema: { type: 'string', enum: ['true'] },
};

const ERRORS: Record<number, string> = {
  409: 'Conflicts with an existing record, or a request with this Idempotency-Key is still in progress',
  422: 'Unparseable JSON, a body that is not an object, or an Idempotency-Key used with another request',
};

/**
 * Documents `Idempotency-Key` on every authenticated POST, PATCH and DELETE: the header, the
 * replay marker on its responses, and the 409 and 422 it can answer (given the error envelope
 * afterwards, with the other error statuses).
 */
export function documentIdempotency(document: OpenAPIObject): OpenAPIObject {
  const ref = { $ref: `#/components/schemas/${ERROR_ENVELOPE}` };
  for (const item of Object.values(document.paths)) {
    for (const method of ['post', 'patch', 'delete'] as const) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation || !(operation.security ?? []).some((r) => 'bearer' in r)) continue;
      operation.parameters = [...(operation.parameters ?? []), KEY_PARAMETER];
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 500)
          response.headers = { ...response.headers, 'Idempotent-Replayed': REPLAYED_HEADER };
      }
      for (const [status, description] of Object.entries(ERRORS)) {
        operation.responses[status] ??= {
          description,
          content: { 'application/json': { schema: ref } },
        } as never;
      }
    }
  }
  return document;
}
