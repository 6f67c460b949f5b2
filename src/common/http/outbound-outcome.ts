import type { OutboundHttpResponse, OutboundHttpResult } from './outbound-http.types';

/** Why an outbound call failed, in the words of the lookup contract's error kinds. */
export type OutboundFailureKind =
  'http_error' | 'timeout' | 'blocked' | 'too_large' | 'network_error';

export interface OutboundFailure {
  ok: false;
  kind: OutboundFailureKind;
  /** The answer's status for `http_error`; null when nothing was answered. */
  status_code: number | null;
  /** The client's words, safe to log and to return: never holds header values. */
  message: string;
  /** Node's error code of a `network_error` when there is one (ECONNREFUSED, ENOTFOUND, ...). */
  code?: string;
  latency_ms: number;
}

export type OutboundOutcome =
  | { ok: true; status_code: number; latency_ms: number; response: OutboundHttpResponse }
  | OutboundFailure;

/** The HTTP status the endpoint answered, or null when it answered nothing. */
export function statusCodeOf(result: OutboundHttpResult): number | null {
  return result.kind === 'response' ? result.status : null;
}

/**
 * An `OutboundHttpClient` result judged once: a 2xx answer succeeds, anything else is a failure
 * of one kind. Each caller words the kind for its own reader (a model, an operator, the lookup's
 * producer); which kind it is is decided here.
 */
export function describeOutboundOutcome(result: OutboundHttpResult): OutboundOutcome {
  const latency_ms = result.latencyMs;
  if (result.kind === 'response') {
    if (result.ok) return { ok: true, status_code: result.status, latency_ms, response: result };
    return {
      ok: false,
      kind: 'http_error',
      status_code: result.status,
      message: `webhook answered HTTP ${result.status}`,
      latency_ms,
    };
  }
  const failed = { ok: false, status_code: null, message: result.message, latency_ms } as const;
  if (result.kind !== 'network') return { ...failed, kind: result.kind };
  return result.code
    ? { ...failed, kind: 'network_error', code: result.code }
    : { ...failed, kind: 'network_error' };
}
