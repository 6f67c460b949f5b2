/**
 * The public contract of the `inbound-context-lookup` queue, shared by the processor and the
 * producer client shipped to the call stack. No Nest or database imports: producers load it alone.
 */

export const INBOUND_CONTEXT_LOOKUP_QUEUE = 'inbound-context-lookup';

/** What a producer adds. One of `inbound_id` or `inbound_number` is required; `inbound_id` wins when both are sent. */
export interface InboundContextLookupJobData {
  /** Real-time room name of the call. */
  room_name: string;
  /** The inbound mapping, when the bridge already knows it. */
  inbound_id?: string;
  /** The dialled number, any formatting; matched on its digits against active mappings. */
  inbound_number?: string;
  /** Caller number as parsed by the telephony bridge. */
  caller_number?: string;
  /**
   * When the producer stops waiting (Unix epoch milliseconds). A job picked up after it is
   * reported as `expired` (logged, no webhook call) instead of calling the customer late, and the
   * webhook call is cut at it. The shipped client sets it from `waitMs`.
   */
  deadline_at?: number;
}

export type InboundContextLookupStatus = 'success' | 'error' | 'skipped';

/** Why a lookup ended in `error`; the `error` text starts with it (`timeout: ...`). */
export type InboundContextLookupErrorKind =
  | 'mapping_not_found'
  | 'assistant_not_found'
  | 'strategy_not_found'
  | 'strategy_inactive'
  | 'missing_url'
  | 'timeout'
  | 'http_error'
  | 'invalid_json'
  | 'invalid_response'
  | 'too_large'
  | 'blocked'
  | 'network_error'
  | 'expired';

/** The job's return value. `prompt` and `start_instruction` are always rendered, with or without context. */
export interface InboundContextLookupResult {
  status: InboundContextLookupStatus;
  assistant_id: string | null;
  assistant_name: string | null;
  inbound_id: string | null;
  strategy_id: string | null;
  /** The `context` object the webhook returned; null unless `status` is `success`. */
  context: Record<string, unknown> | null;
  /** `assistant_prompt` with `{{context.<key>}}` replaced (empty text when there is no context). */
  prompt: string | null;
  /** `assistant_start_instruction`, rendered the same way; null when the assistant has none. */
  start_instruction: string | null;
  /** Webhook round trip in ms; 0 when no request was made. */
  latency_ms: number;
  /** `<kind>: <detail>` when `status` is `error`, else null. */
  error: string | null;
  /** The `inbound_context_lookup` activity-log entry; null when none was written (skipped, unknown mapping). */
  log_id: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ParsedJobData =
  { ok: true; data: InboundContextLookupJobData } | { ok: false; error: string };

/** Checks job data from an untrusted producer; the processor fails a malformed job at once with this reason. */
export function parseLookupJobData(raw: unknown): ParsedJobData {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, error: 'job data must be an object' };
  const data = raw as Record<string, unknown>;
  const problems: string[] = [];
  const room = data.room_name;
  if (typeof room !== 'string' || room.trim() === '' || room.length > 255) {
    problems.push('room_name must be a non-empty string of at most 255 characters');
  }
  const inboundId = data.inbound_id ?? undefined;
  const inboundNumber = data.inbound_number ?? undefined;
  const caller = data.caller_number ?? undefined;
  if (inboundId !== undefined && (typeof inboundId !== 'string' || !UUID.test(inboundId))) {
    problems.push('inbound_id must be a UUID string');
  }
  if (
    inboundNumber !== undefined &&
    (typeof inboundNumber !== 'string' ||
      inboundNumber.replace(/\D+/g, '').length < 5 ||
      inboundNumber.length > 40)
  ) {
    problems.push('inbound_number must be a string with at least 5 digits');
  }
  if (inboundId === undefined && inboundNumber === undefined)
    problems.push('one of inbound_id or inbound_number is required');
  if (caller !== undefined && (typeof caller !== 'string' || caller.length > 64)) {
    problems.push('caller_number must be a string of at most 64 characters');
  }
  const deadline = data.deadline_at ?? undefined;
  if (
    deadline !== undefined &&
    (typeof deadline !== 'number' || !Number.isFinite(deadline) || deadline <= 0)
  ) {
    problems.push('deadline_at must be a Unix time in milliseconds');
  }
  if (problems.length) return { ok: false, error: problems.join('; ') };
  return {
    ok: true,
    data: {
      room_name: room as string,
      ...(inboundId !== undefined ? { inbound_id: inboundId as string } : {}),
      ...(inboundNumber !== undefined ? { inbound_number: inboundNumber as string } : {}),
      ...(caller !== undefined ? { caller_number: caller as string } : {}),
      ...(deadline !== undefined ? { deadline_at: deadline as number } : {}),
    },
  };
}
