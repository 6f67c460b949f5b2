import { normalizePhoneNumber } from '../common/validation/phone-number';
import { rangesOf, type MinuteRange } from './hour-ranges';
import { isPublicHoliday } from './holidays';
import {
  instantOf,
  isoInZone,
  localTimeOf,
  nextDate,
  weekdayOfDate,
  type LocalTime,
} from './local-time';
import type { InboundPolicy, PolicyAction, PolicyDecision } from './policy.types';

/*
 * What a number's policy says of one call at one moment: pure (the caller passes the moment), so
 * the lookup, the policy check route and the tests share it. Order: caller rules (deny wins, then
 * an allow list), then opening hours and closing days; the concurrency cap is the lookup's
 * (`overflowOf`), since only it holds the slots.
 */

/** The assistant a closed or full number hands the call to. */
export interface PolicyAssistant {
  assistant_id: string;
  assistant_version: number | null;
}

/** The decision, with the values `{{call.*}}` renders and the assistant an `assistant` action names. */
export interface PolicyEvaluation extends PolicyDecision {
  /** The moment on the zone's wall, ISO 8601 with its offset. */
  local_iso: string;
  /** `HH:MM`. */
  local_time: string;
  /** `YYYY-MM-DD`. */
  local_date: string;
  /** Whether the hours and closing days have the number open now (whatever the caller rules say). */
  is_open: boolean;
  /** The next opening as `Monday 09:00` (local); empty when open or never open again. */
  next_open: string;
  assistant: PolicyAssistant | null;
}

/** What a caller the rules refuse hears (the policy gives no message of its own for that). */
export const DENIED_MESSAGE = 'This number does not take calls from your number.';

/** How far ahead the next opening is looked for (a year and a week). */
const SEARCH_DAYS = 373;

const DAY_NAMES = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
} as const;

export function evaluatePolicy(
  policy: InboundPolicy,
  { now, caller }: { now: number; caller: string | null | undefined },
): PolicyEvaluation {
  const zone = policy.timezone ?? 'UTC';
  const local = localTimeOf(now, zone);
  const is_open = isOpenAt(policy, local);
  const next = is_open ? null : nextOpening(policy, zone, now);
  const base = {
    local_iso: isoInZone(now, zone),
    local_time: local.hhmm,
    local_date: local.date,
    is_open,
    next_open: next === null ? '' : nextOpenText(next, zone),
  };
  if (!callerAllowed(policy, caller))
    return {
      ...base,
      outcome: 'denied',
      action: 'reject',
      message: DENIED_MESSAGE,
      next_open_at: null,
      assistant: null,
    };
  if (!is_open)
    return {
      ...base,
      outcome: 'closed',
      ...actionOf(policy.closed),
      next_open_at: next === null ? null : isoInZone(next, zone),
    };
  return {
    ...base,
    outcome: 'open',
    action: 'continue',
    message: null,
    next_open_at: null,
    assistant: null,
  };
}

/** The same call once the number is at its cap of concurrent calls. */
export function overflowOf(policy: InboundPolicy, evaluation: PolicyEvaluation): PolicyEvaluation {
  return { ...evaluation, outcome: 'overflow', ...actionOf(policy.overflow), next_open_at: null };
}

/** The decision as results and log entries carry it. */
export function decisionOf(evaluation: PolicyEvaluation): PolicyDecision {
  const { outcome, action, message, next_open_at } = evaluation;
  return { outcome, action, message, next_open_at };
}

function actionOf(
  action: PolicyAction | null | undefined,
): Pick<PolicyEvaluation, 'action' | 'message' | 'assistant'> {
  const message = action?.message ?? null;
  if (action?.action === 'assistant' && action.assistant_id)
    return {
      action: 'assistant',
      message,
      assistant: {
        assistant_id: action.assistant_id,
        assistant_version: action.assistant_version ?? null,
      },
    };
  return { action: 'reject', message, assistant: null };
}

/**
 * Caller rules on the number's digits: a listed number matches itself, a prefix (`+4930*`) every
 * number it starts; a match in `deny` refuses, and with `allow` only its matches pass (a caller
 * without a number matches nothing).
 */
export function callerAllowed(policy: InboundPolicy, caller: string | null | undefined): boolean {
  const digits = caller ? normalizePhoneNumber(caller) : null;
  const matches = (rule: string) => {
    if (digits === null) return false;
    const ruleDigits = rule.replace(/\D+/g, '');
    return rule.endsWith('*') ? digits.startsWith(ruleDigits) : digits === ruleDigits;
  };
  if (policy.callers?.deny?.some(matches)) return false;
  const allow = policy.callers?.allow;
  return !allow || allow.some(matches);
}

function isClosingDay(policy: InboundPolicy, date: string): boolean {
  if (policy.holidays?.includes(date)) return true;
  return Boolean(policy.holiday_country && isPublicHoliday(policy.holiday_country, date));
}

/** The day's opening ranges: its hours, or the whole day when the policy sets no hours. */
function windowsOf(policy: InboundPolicy, date: string): MinuteRange[] {
  if (isClosingDay(policy, date)) return [];
  if (!policy.hours) return [[0, 1440]];
  return rangesOf(policy.hours[weekdayOfDate(date)]);
}

function isOpenAt(policy: InboundPolicy, local: LocalTime): boolean {
  return windowsOf(policy, local.date).some(
    ([start, end]) => local.minutes >= start && local.minutes < end,
  );
}

/** The first opening after `now`, as an instant; null when none within `SEARCH_DAYS`. */
function nextOpening(policy: InboundPolicy, zone: string, now: number): number | null {
  let date = localTimeOf(now, zone).date;
  for (let day = 0; day < SEARCH_DAYS; day++, date = nextDate(date)) {
    for (const [start] of windowsOf(policy, date)) {
      const at = instantOf(date, start, zone);
      if (at > now) return at;
    }
  }
  return null;
}

function nextOpenText(instant: number, zone: string): string {
  const local = localTimeOf(instant, zone);
  return `${DAY_NAMES[local.weekday]} ${local.hhmm}`;
}

/**
 * What `POST /inbound/policy-check` answers: the decision for `caller` at `now`, with the local
 * time. A number without a policy is open.
 */
export function policyCheckOf(
  policy: InboundPolicy | null,
  { now, caller }: { now: number; caller: string | null | undefined },
): PolicyDecision & { local_time: string } {
  const { outcome, action, message, next_open_at, local_time } = evaluatePolicy(policy ?? {}, {
    now,
    caller,
  });
  return { outcome, action, message, next_open_at, local_time };
}
