import { policyProblems } from './policy-rules';
import type { InboundPolicy } from './policy.types';

const fields = (policy: InboundPolicy) => policyProblems(policy).map((p) => p.field);

describe(policyProblems.name, () => {
  it('accepts a full policy', () => {
    expect(
      policyProblems({
        timezone: 'Europe/Berlin',
        hours: { mon: ['09:00-14:00', '16:00-20:00'], sat: ['00:00-24:00'] },
        holidays: ['2026-12-24'],
        holiday_country: 'DE',
        closed: { action: 'assistant', assistant_id: 'a', assistant_version: 2 },
        callers: { allow: ['+49*', '+4930123456'], deny: ['+4930666*'] },
        overflow: { action: 'reject', message: 'Busy' },
      }),
    ).toEqual([]);
  });

  it.each([
    [{ timezone: 'Mars/Olympus' }, 'policy.timezone'],
    [{ hours: { mon: ['09:00-10:00'] } }, 'policy.timezone'],
    [{ timezone: 'UTC', hours: { mon: ['09:00-10:00', '25:00-26:00'] } }, 'policy.hours.mon[1]'],
    [{ timezone: 'UTC', hours: { tue: ['10:00-09:00'] } }, 'policy.hours.tue[0]'],
    [{ timezone: 'UTC', hours: { wed: ['09:00-12:00', '11:00-13:00'] } }, 'policy.hours.wed[1]'],
    [{ timezone: 'UTC', hours: { thu: ['11:00-13:00', '09:00-12:00'] } }, 'policy.hours.thu[1]'],
    [{ timezone: 'UTC', hours: { fri: ['09:00-24:30'] } }, 'policy.hours.fri[0]'],
    [{ timezone: 'UTC', holidays: ['2026-02-30'] }, 'policy.holidays[0]'],
    [{ timezone: 'UTC', holiday_country: 'XX' }, 'policy.holiday_country'],
    [{ callers: { deny: ['+49', '4930*'] } }, 'policy.callers.deny[1]'],
    [{ callers: { allow: ['+49 30'] } }, 'policy.callers.allow[0]'],
    [{ closed: { action: 'assistant' } }, 'policy.closed.assistant_id'],
    [{ overflow: { action: 'reject', assistant_id: 'a' } }, 'policy.overflow.assistant_id'],
  ] as [InboundPolicy, string][])('%j → %s', (policy, field) => {
    expect(fields(policy)).toEqual([field]);
  });

  it('accepts ranges that touch and a day ending at 24:00', () => {
    expect(fields({ timezone: 'UTC', hours: { mon: ['09:00-12:00', '12:00-24:00'] } })).toEqual([]);
  });
});
