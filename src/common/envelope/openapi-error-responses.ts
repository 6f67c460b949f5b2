import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODES, ERROR_STATUSES, errorData } from '../errors/error-statuses';

type Operation = {
  security?: Record<string, unknown>[];
  requestBody?: unknown;
  parameters?: { in?: string }[];
  responses: Record<string, ResponseObject>;
  'x-api-key-scope'?: string;
};
type ResponseObject = { description?: string; content?: Record<string, unknown> };

/** Name of the error envelope's schema in the document's components. */
export const ERROR_ENVELOPE = 'ErrorEnvelopeDto';

/** The envelope of every error: `data.code` always, `errors` on a 400, `error_id` on a 500 or 503. */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['success', 'message', 'data'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    message: { type: 'string' },
    data: {
      type: 'object',
      required: ['code'],
      description:
        "The error's stable `code`, and what the error adds: `errors` on a 400, `error_id` on a 500 or 503.",
      properties: {
        code: {
          type: 'string',
          enum: [...ERROR_CODES],
          description:
            'Stable, machine-readable snake_case code of the error: one per status (`validation_failed`, ' +
            '`not_found`, `precondition_failed`…), or a narrower one (`idempotency_key_reused`, ' +
            '`idempotency_key_in_progress`, `route_not_found`). Match on it, not on `message`.',
        },
        errors: {
          type: 'array',
          description: 'Each field at fault, named by its full path.',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: {
              field: { type: 'string', example: 'assistant_tts_config.voice_id' },
              message: { type: 'string' },
            },
          },
        },
        error_id: {
          type: 'string',
          format: 'uuid',
          description: 'Quote it when reporting the problem; the same id is in the service log.',
        },
      },
    },
  },
} as const;

/** The error statuses an operation can answer, from what it takes and how it is protected. */
function errorStatusesOf(operation: Operation): number[] {
  const statuses = new Set<number>([500]);
  const secured = (operation.security ?? []).some((requirement) => 'bearer' in requirement);
  if (secured) {
    for (const status of [401, 429, 503]) statuses.add(status);
    if (operation['x-api-key-scope'] !== 'any') statuses.add(403);
  }
  const parameters = operation.parameters ?? [];
  if (parameters.length > 0) statuses.add(400);
  if (parameters.some((parameter) => parameter.in === 'path')) statuses.add(404);
  if (operation.requestBody) for (const status of [400, 413, 415, 422]) statuses.add(status);
  return [...statuses];
}

/**
 * Documents every error an operation can answer, in one place and one shape: the statuses its
 * inputs and its protection imply (on top of those a route declares, such as 409), each as the
 * error envelope with a real example. Secured operations that do not declare a scope are marked
 * `x-api-key-scope: config`, the scope the key guard then requires.
 */
export function documentErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_ENVELOPE] = ERROR_ENVELOPE_SCHEMA as never;
  const ref = { $ref: `#/components/schemas/${ERROR_ENVELOPE}` };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const secured = (operation.security ?? []).some((requirement) => 'bearer' in requirement);
      if (secured) operation['x-api-key-scope'] ??= 'config';
      const declared = Object.keys(operation.responses)
        .map(Number)
        .filter(
          (status) =>
            status >= 400 &&
            operation.responses[status]?.content &&
            isErrorEnvelope(operation.responses[status]),
        );
      for (const status of new Set([...declared, ...errorStatusesOf(operation)])) {
        const known = ERROR_STATUSES[status];
        if (!known) continue;
        const existing = operation.responses[status];
        if (existing && !isErrorEnvelope(existing)) continue;
        operation.responses[status] = {
          description: existing?.description ?? known.description,
          content: {
            'application/json': {
              schema: ref,
              example: {
                success: false,
                message: known.example.message,
                data: errorData(status, known.example.data),
              },
            },
          },
        };
      }
    }
  }
  return document;
}

function isErrorEnvelope(response: ResponseObject): boolean {
  const json = response.content?.['application/json'] as { schema?: { $ref?: string } } | undefined;
  return json?.schema?.$ref === `#/components/schemas/${ERROR_ENVELOPE}`;
}
