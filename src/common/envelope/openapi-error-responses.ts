import type { OpenAPIObject } from '@nestjs/swagger';

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

/** The envelope of every error: `data` is null, or holds `errors` (400) or `error_id` (500, 503). */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['success', 'message', 'data'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    message: { type: 'string' },
    data: {
      type: 'object',
      nullable: true,
      description: 'Null, or what the error adds: `errors` on a 400, `error_id` on a 500 or 503.',
      properties: {
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

interface ErrorStatus {
  description: string;
  message: string;
  data: Record<string, unknown> | null;
}

const ERROR_ID = '5b0e3a6e-8c1f-4b8e-9a51-0d5f3f2f8a11';

/** What each error status means here, with a real response as its example. */
export const ERROR_STATUSES: Record<number, ErrorStatus> = {
  400: {
    description: 'Validation failed; `data.errors` names each field',
    message: 'Validation failed',
    data: {
      errors: [
        {
          field: 'assistant_tts_config.voice_id',
          message: 'assistant_tts_config.voice_id must be a string',
        },
      ],
    },
  },
  401: {
    description: 'Missing or invalid Bearer API key',
    message: 'Missing or invalid API key',
    data: null,
  },
  403: {
    description: 'The API key lacks the scope this route needs (or the route is disabled)',
    message: "This API key lacks the 'config' scope this route needs",
    data: null,
  },
  404: {
    description: 'Not found, or not visible to this API key',
    message: 'Assistant not found',
    data: null,
  },
  409: {
    description: 'Conflicts with an existing record',
    message: 'Phone number 918012345678 already has an active inbound mapping',
    data: null,
  },
  413: {
    description: 'Request body over 1 MB',
    message: 'Request body exceeds 1048576 bytes',
    data: null,
  },
  415: {
    description: 'Body is not JSON, or in an encoding or charset the service does not decode',
    message: 'Unsupported Content-Encoding: use gzip, deflate, br or none',
    data: null,
  },
  422: {
    description: 'Body is not parseable JSON or not a JSON object',
    message: 'Request body is not valid JSON',
    data: null,
  },
  429: {
    description: 'Rate limit exceeded; see `Retry-After`',
    message: 'Too many requests: the limit is 600 per minute',
    data: null,
  },
  500: {
    description: 'Unexpected error; `data.error_id` identifies it in the service log',
    message: 'Internal server error',
    data: { error_id: ERROR_ID },
  },
  503: {
    description: 'A dependency is unavailable or the request took longer than its time budget',
    message: 'Database unavailable, try again shortly',
    data: { error_id: ERROR_ID },
  },
};

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
              example: { success: false, message: known.message, data: known.data },
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
