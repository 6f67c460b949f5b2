export interface ErrorStatus {
  /** The stable machine-readable `data.code` of an error of this status (snake_case). */
  code: string;
  /** Narrower codes some errors of this status carry instead, each with what it means. */
  narrower?: Record<string, string>;
  /** What the status means on this API: the OpenAPI response's description. */
  description: string;
  /** The message of an error of this status that carries none of its own. */
  fallback: string;
  /** A real response of this status: the OpenAPI example. */
  example: { message: string; data: Record<string, unknown> | null };
}

const ERROR_ID = '5b0e3a6e-8c1f-4b8e-9a51-0d5f3f2f8a11';

/**
 * Every error status the API answers: what it means, the message when the error has none, and a
 * real response as its example. The exception filter and the OpenAPI document both read it.
 */
export const ERROR_STATUSES: Record<number, ErrorStatus> = {
  400: {
    code: 'validation_failed',
    description: 'Validation failed; `data.errors` names each field',
    fallback: 'Bad request',
    example: {
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
  },
  401: {
    code: 'unauthorized',
    description: 'Missing or invalid Bearer API key',
    fallback: 'Missing or invalid API key',
    example: {
      message: 'Missing or invalid API key',
      data: null,
    },
  },
  403: {
    code: 'forbidden',
    description: 'The API key lacks the scope this route needs (or the route is disabled)',
    fallback: 'Forbidden',
    example: {
      message: "This API key lacks the 'config' scope this route needs",
      data: null,
    },
  },
  404: {
    code: 'not_found',
    narrower: { route_not_found: 'no route has this method and path' },
    description: 'Not found, or not visible to this API key',
    fallback: 'Not found',
    example: {
      message: 'Assistant not found',
      data: null,
    },
  },
  405: {
    code: 'method_not_allowed',
    description: 'The route does not take this method',
    fallback: 'Method not allowed',
    example: { message: 'Method not allowed', data: null },
  },
  409: {
    code: 'conflict',
    narrower: {
      idempotency_key_in_progress: 'a request with this Idempotency-Key is still running',
    },
    description: 'Conflicts with an existing record',
    fallback: 'Conflict',
    example: {
      message: 'Phone number 918012345678 already has an active inbound mapping',
      data: null,
    },
  },
  412: {
    code: 'precondition_failed',
    description: '`If-Match` names an ETag the record no longer has: it changed since it was read',
    fallback: 'Precondition failed',
    example: {
      message: 'If-Match does not match the current ETag: the record changed since it was read',
      data: null,
    },
  },
  413: {
    code: 'payload_too_large',
    description: 'Request body over 1 MB',
    fallback: 'Request body too large',
    example: {
      message: 'Request body exceeds 1048576 bytes',
      data: null,
    },
  },
  415: {
    code: 'unsupported_media_type',
    description: 'Body is not JSON, or in an encoding or charset the service does not decode',
    fallback: 'Unsupported media type',
    example: {
      message: 'Unsupported Content-Encoding: use gzip, deflate, br or none',
      data: null,
    },
  },
  422: {
    code: 'unprocessable_entity',
    narrower: { idempotency_key_reused: 'this Idempotency-Key was used with another request' },
    description: 'Body is not parseable JSON or not a JSON object',
    fallback: 'Unprocessable entity',
    example: {
      message: 'Request body is not valid JSON',
      data: null,
    },
  },
  429: {
    code: 'rate_limited',
    description: 'Rate limit exceeded; see `Retry-After`',
    fallback: 'Too many requests',
    example: {
      message: 'Too many requests: the limit is 600 per minute',
      data: null,
    },
  },
  500: {
    code: 'internal_error',
    description: 'Unexpected error; `data.error_id` identifies it in the service log',
    fallback: 'Internal server error',
    example: {
      message: 'Internal server error',
      data: { error_id: ERROR_ID },
    },
  },
  503: {
    code: 'service_unavailable',
    description: 'A dependency is unavailable or the request took longer than its time budget',
    fallback: 'Service unavailable',
    example: {
      message: 'Database unavailable, try again shortly',
      data: { error_id: ERROR_ID },
    },
  },
};

/** Every `data.code` an error body can carry: each status's code and its narrower ones. */
export const ERROR_CODES: readonly string[] = Object.values(ERROR_STATUSES).flatMap((status) => [
  status.code,
  ...Object.keys(status.narrower ?? {}),
]);

/**
 * An error body's `data`: the stable `code` first (the status's, or a narrower one the table lists
 * for that status), then what the error adds (`errors`, `error_id`, `used_by`…).
 */
export function errorData(
  status: number,
  data: Record<string, unknown> | null,
  narrower?: string,
): Record<string, unknown> {
  const known = ERROR_STATUSES[status];
  const code =
    narrower !== undefined && known?.narrower && narrower in known.narrower
      ? narrower
      : (known?.code ?? (status >= 500 ? 'internal_error' : 'error'));
  const { code: _ignored, ...rest } = data ?? {};
  return { code, ...rest };
}
