import type { InboundContextLookupErrorKind } from '../../contracts/inbound-context-lookup.contract';

/** A lookup that ended before (or without) a webhook answer. */
export interface LookupFailure {
  ok: false;
  kind: InboundContextLookupErrorKind;
  message: string;
  status_code?: number;
  latency_ms: number;
}

/** A failure decided here, not by the webhook: nothing was sent, so no time was spent. */
export function lookupFailure(kind: InboundContextLookupErrorKind, message: string): LookupFailure {
  return { ok: false, kind, message, latency_ms: 0 };
}
