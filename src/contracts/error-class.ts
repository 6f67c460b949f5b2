/**
 * Why an outbound request (or the attempt to make one) failed, in one vocabulary for every queue,
 * the activity log, the strategy dry run and endpoint health. No Nest imports: the job contracts
 * (loaded alone by producers) name the classes too.
 */
export const ERROR_CLASSES = [
  'timeout',
  'network',
  'http_4xx',
  'auth',
  'http_5xx',
  'invalid_response',
  'blocked',
  'config',
  'internal',
  'cancelled',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/**
 * Every failure kind a caller can name: the HTTP client's (`timeout`, `network`, `blocked`,
 * `too_large`), the described outcome's (`http_error`, `network_error`), the lookup contract's
 * error kinds, and the refusals of the tool call and the end-call delivery before anything is sent.
 */
export type FailureKind =
  | 'timeout'
  | 'network'
  | 'network_error'
  | 'blocked'
  | 'too_large'
  | 'http_error'
  | 'invalid_json'
  | 'invalid_response'
  | 'prompt_too_large'
  | 'mapping_not_found'
  | 'assistant_not_found'
  | 'strategy_not_found'
  | 'strategy_inactive'
  | 'missing_url'
  | 'secret_not_found'
  | 'tool_not_found'
  | 'tool_not_attached'
  | 'version_not_found'
  | 'tool_not_in_version'
  | 'invalid_arguments'
  | 'expired'
  | 'cancelled'
  | 'internal';

const BY_KIND: Record<Exclude<FailureKind, 'http_error'>, ErrorClass> = {
  timeout: 'timeout',
  network: 'network',
  network_error: 'network',
  blocked: 'blocked',
  too_large: 'invalid_response',
  invalid_json: 'invalid_response',
  invalid_response: 'invalid_response',
  prompt_too_large: 'invalid_response',
  mapping_not_found: 'config',
  assistant_not_found: 'config',
  strategy_not_found: 'config',
  strategy_inactive: 'config',
  missing_url: 'config',
  secret_not_found: 'config',
  tool_not_found: 'config',
  tool_not_attached: 'config',
  version_not_found: 'config',
  tool_not_in_version: 'config',
  invalid_arguments: 'config',
  // The job waited in the queue past its producer's deadline: nothing was sent, and the customer's
  // endpoint is not to blame.
  expired: 'internal',
  // The call stack withdrew the call (`tool-call-cancel`) before it was sent.
  cancelled: 'cancelled',
  internal: 'internal',
};

/**
 * The one classifier. `statusCode` is what the endpoint answered, for `http_error`: 401 and 403
 * are `auth`, other 4xx `http_4xx`, 5xx `http_5xx`; a 1xx or 3xx (redirects are never followed)
 * is not an answer the service can use, so `invalid_response`. An unknown kind is `internal`.
 */
export function classifyFailure(kind: FailureKind, statusCode?: number | null): ErrorClass {
  if (kind !== 'http_error') return BY_KIND[kind] ?? 'internal';
  const status = statusCode ?? 0;
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400 && status < 500) return 'http_4xx';
  if (status >= 500 && status < 600) return 'http_5xx';
  return 'invalid_response';
}
