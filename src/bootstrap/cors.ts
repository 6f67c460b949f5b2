import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';

/** Request headers a browser client may send: the key, JSON bodies, and conditional/idempotent writes. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
];

/** Response headers a browser client may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * CORS for `CORS_ORIGINS`: `*` answers any origin; a list answers only its origins. A request from
 * any other origin (or without one) gets no CORS header at all, so its preflight falls through to
 * the router (404) and the browser refuses the call. No credentials: the API key is a header.
 */
export function corsOptions(origins: '*' | string[]): CorsOptions {
  const allowed = origins === '*' ? null : new Set(origins);
  return {
    origin: allowed
      ? (origin, callback) => callback(null, origin !== undefined && allowed.has(origin))
      : '*',
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  };
}
