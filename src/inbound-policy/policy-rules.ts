import type { FieldError } from '../common/errors/app.exception';
import { hourRangesProblem } from './hour-ranges';
import { isKnownHolidayCountry } from './holidays';
import { isKnownTimeZone } from './local-time';
import { type InboundPolicy, type PolicyAction, WEEKDAYS } from './policy.types';

/*
 * The rules of a policy's values, each error naming its field by full path
 * (`policy.hours.mon[1]`). The request DTO has already checked the shape (types, list sizes,
 * numeric bounds); what needs the database (an assistant the caller owns) is the service's.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** An E.164 number, or a prefix of one ending in `*` (`+4930*`; `+*` is every number). */
const CALLER = /^\+(?:[1-9]\d{1,14}|\d{0,14}\*)$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Every problem of `policy`'s values, fields named under `path`; empty when it is valid. */
export function policyProblems(policy: InboundPolicy, path = 'policy'): FieldError[] {
  const problems: FieldError[] = [];
  const add = (field: string, message: string) =>
    problems.push({ field: `${path}.${field}`, message });
  const needsZone = Boolean(policy.hours || policy.holidays?.length || policy.holiday_country);
  if (policy.timezone) {
    if (!isKnownTimeZone(policy.timezone))
      add('timezone', 'timezone must be an IANA time zone, e.g. "Europe/Berlin"');
  } else if (needsZone)
    add('timezone', 'timezone is required with hours, holidays or holiday_country');
  for (const day of WEEKDAYS) {
    const problem = hourRangesProblem(policy.hours?.[day] ?? []);
    if (problem) add(`hours.${day}[${problem.index}]`, problem.message);
  }
  for (const [index, date] of (policy.holidays ?? []).entries())
    if (!isCalendarDate(date)) add(`holidays[${index}]`, 'must be a date YYYY-MM-DD');
  if (policy.holiday_country && !isKnownHolidayCountry(policy.holiday_country))
    add(
      'holiday_country',
      'holiday_country must be an ISO 3166-1 alpha-2 country code with known public holidays, e.g. "DE"',
    );
  for (const list of ['allow', 'deny'] as const)
    for (const [index, caller] of (policy.callers?.[list] ?? []).entries())
      if (!CALLER.test(caller))
        add(
          `callers.${list}[${index}]`,
          'must be an E.164 number (+4930123456) or a prefix ending in * (+4930*)',
        );
  for (const name of ['closed', 'overflow'] as const) {
    const action = policy[name];
    if (action) problems.push(...actionProblems(action, `${path}.${name}`));
  }
  return problems;
}

function actionProblems(action: PolicyAction, path: string): FieldError[] {
  if (action.action === 'assistant' && !action.assistant_id)
    return [
      {
        field: `${path}.assistant_id`,
        message: 'assistant_id is required with action "assistant"',
      },
    ];
  if (action.action === 'reject' && action.assistant_id)
    return [
      { field: `${path}.assistant_id`, message: 'assistant_id is only for action "assistant"' },
    ];
  if (action.action === 'reject' && action.assistant_version != null)
    return [
      {
        field: `${path}.assistant_version`,
        message: 'assistant_version is only for action "assistant"',
      },
    ];
  return [];
}
