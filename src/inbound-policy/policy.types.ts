/** The weekdays `hours` is keyed by, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const POLICY_ACTIONS = ['assistant', 'reject'] as const;
export type PolicyActionKind = (typeof POLICY_ACTIONS)[number];

/** What a closed or full number does instead: another assistant answers, or a message and hang-up. */
export interface PolicyAction {
  action: PolicyActionKind;
  assistant_id?: string | null;
  assistant_version?: number | null;
  message?: string | null;
}

/**
 * A number's inbound policy as stored and as the routes show it: opening hours local to
 * `timezone`, closing days, caller rules and a cap on concurrent calls.
 */
export interface InboundPolicy {
  timezone?: string | null;
  hours?: Partial<Record<Weekday, string[]>> | null;
  holidays?: string[] | null;
  holiday_country?: string | null;
  closed?: PolicyAction | null;
  callers?: { allow?: string[] | null; deny?: string[] | null } | null;
  max_concurrent_calls?: number | null;
  overflow?: PolicyAction | null;
  slot_ttl_seconds?: number | null;
}

export const POLICY_LIMITS = {
  rangesPerDay: 4,
  holidays: 366,
  callers: 1000,
  messageLength: 1000,
  minConcurrent: 1,
  maxConcurrent: 10_000,
  minSlotTtl: 60,
  maxSlotTtl: 86_400,
  defaultSlotTtl: 14_400,
} as const;

export const POLICY_OUTCOMES = ['open', 'closed', 'denied', 'overflow'] as const;
export type PolicyOutcome = (typeof POLICY_OUTCOMES)[number];
export const POLICY_RESULT_ACTIONS = ['continue', 'assistant', 'reject'] as const;
export type PolicyResultAction = (typeof POLICY_RESULT_ACTIONS)[number];

/** What a lookup's result and entry carry of the policy. */
export interface PolicyDecision {
  outcome: PolicyOutcome;
  action: PolicyResultAction;
  message: string | null;
  /** ISO 8601 with the zone's offset; null when open, denied, full, or never open again. */
  next_open_at: string | null;
}
