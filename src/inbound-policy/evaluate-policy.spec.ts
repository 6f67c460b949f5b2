import { DENIED_MESSAGE, callerAllowed, evaluatePolicy, overflowOf } from './evaluate-policy';
import type { InboundPolicy } from './policy.types';

const at = (iso: string) => Date.parse(iso);

const berlin: InboundPolicy = {
  timezone: 'Europe/Berlin',
  hours: {
    mon: ['09:00-14:00', '16:00-20:00'],
    tue: ['09:00-14:00', '16:00-20:00'],
    wed: ['09:00-14:00', '16:00-20:00'],
    thu: ['09:00-14:00', '16:00-20:00'],
    fri: ['09:00-14:00', '16:00-20:00'],
    sat: ['00:00-24:00'],
    // Sunday left out: closed.
  },
  holidays: ['2026-06-02'],
  closed: { action: 'reject', message: 'We are closed.' },
};

describe(evaluatePolicy.name, () => {
  it.each([
    // [moment (UTC), outcome, local time, next_open_at]
    ['2026-01-12T08:30:00Z', 'open', '09:30', null], // Monday, winter (+01:00)
    ['2026-01-12T21:40:00Z', 'closed', '22:40', '2026-01-13T09:00:00+01:00'],
    ['2026-01-12T13:30:00Z', 'closed', '14:30', '2026-01-12T16:00:00+01:00'], // between ranges
    ['2026-01-12T13:00:00Z', 'closed', '14:00', '2026-01-12T16:00:00+01:00'], // a range's end is not in it
    ['2026-01-12T15:00:00Z', 'open', '16:00', null], // a range's start is
    ['2026-01-17T22:59:00Z', 'open', '23:59', null], // Saturday, "00:00-24:00"
    ['2026-01-17T23:00:00Z', 'closed', '00:00', '2026-01-19T09:00:00+01:00'], // Sunday: left out
    ['2026-06-02T08:00:00Z', 'closed', '10:00', '2026-06-03T09:00:00+02:00'], // a listed holiday (Tuesday)
  ])('%s is %s (local %s)', (moment, outcome, localTime, nextOpenAt) => {
    const result = evaluatePolicy(berlin, { now: at(moment), caller: '+4930123456' });
    expect(result).toMatchObject({ outcome, local_time: localTime, next_open_at: nextOpenAt });
    expect(result.is_open).toBe(outcome === 'open');
    expect(result.action).toBe(outcome === 'open' ? 'continue' : 'reject');
    expect(result.message).toBe(outcome === 'open' ? null : 'We are closed.');
  });

  describe('daylight-saving changes (Europe/Berlin: 2026-03-29 and 2026-10-25)', () => {
    const sunday: InboundPolicy = {
      timezone: 'Europe/Berlin',
      hours: { sun: ['01:00-02:30', '03:00-04:00'] },
    };

    it('spring forward: 01:59 +01:00 is open, the next minute is 03:00 +02:00 and open in the second range', () => {
      expect(
        evaluatePolicy(sunday, { now: at('2026-03-29T00:59:00Z'), caller: null }),
      ).toMatchObject({ outcome: 'open', local_time: '01:59' });
      expect(
        evaluatePolicy(sunday, { now: at('2026-03-29T01:00:00Z'), caller: null }),
      ).toMatchObject({
        outcome: 'open',
        local_time: '03:00',
        local_iso: '2026-03-29T03:00:00+02:00',
      });
    });

    it('spring forward: the opening after the change is read on the new offset', () => {
      const result = evaluatePolicy(
        { timezone: 'Europe/Berlin', hours: { sun: ['09:00-10:00'] } },
        { now: at('2026-03-29T00:30:00Z'), caller: null },
      );
      expect(result).toMatchObject({
        outcome: 'closed',
        local_time: '01:30',
        next_open_at: '2026-03-29T09:00:00+02:00',
        next_open: 'Sunday 09:00',
      });
    });

    it('spring forward: an opening the clocks skip is read after the change (02:30 → 03:30 +02:00)', () => {
      const result = evaluatePolicy(
        { timezone: 'Europe/Berlin', hours: { sun: ['02:30-05:00'] } },
        { now: at('2026-03-29T00:10:00Z'), caller: null },
      );
      expect(result.next_open_at).toBe('2026-03-29T03:30:00+02:00');
    });

    it('fall back: 02:30 shows twice, open both times; the first opening of 02:00 is the earlier one', () => {
      const policy: InboundPolicy = { timezone: 'Europe/Berlin', hours: { sun: ['02:00-03:00'] } };
      expect(
        evaluatePolicy(policy, { now: at('2026-10-25T00:30:00Z'), caller: null }),
      ).toMatchObject({ outcome: 'open', local_iso: '2026-10-25T02:30:00+02:00' });
      expect(
        evaluatePolicy(policy, { now: at('2026-10-25T01:30:00Z'), caller: null }),
      ).toMatchObject({ outcome: 'open', local_iso: '2026-10-25T02:30:00+01:00' });
      expect(
        evaluatePolicy(policy, { now: at('2026-10-24T12:00:00Z'), caller: null }).next_open_at,
      ).toBe('2026-10-25T02:00:00+02:00');
    });

    it('America/New_York (2026-03-08 and 2026-11-01): the same local hours on both offsets', () => {
      const policy: InboundPolicy = {
        timezone: 'America/New_York',
        hours: { sun: ['09:00-17:00'], mon: ['09:00-17:00'] },
      };
      expect(
        evaluatePolicy(policy, { now: at('2026-03-08T13:30:00Z'), caller: null }),
      ).toMatchObject({ outcome: 'open', local_iso: '2026-03-08T09:30:00-04:00' });
      expect(
        evaluatePolicy(policy, { now: at('2026-03-07T13:30:00Z'), caller: null }),
      ).toMatchObject({
        outcome: 'closed',
        local_time: '08:30',
        next_open_at: '2026-03-08T09:00:00-04:00',
      });
      expect(
        evaluatePolicy(policy, { now: at('2026-11-01T13:30:00Z'), caller: null }),
      ).toMatchObject({
        outcome: 'closed',
        local_time: '08:30',
        next_open_at: '2026-11-01T09:00:00-05:00',
      });
      expect(
        evaluatePolicy(policy, { now: at('2026-11-01T14:00:00Z'), caller: null }),
      ).toMatchObject({ outcome: 'open', local_time: '09:00' });
    });
  });

  it('holiday_country dates are closed (Germany: Friday 2026-12-25 and Saturday 12-26; Sunday is left out)', () => {
    const policy: InboundPolicy = { ...berlin, holidays: [], holiday_country: 'DE' };
    expect(evaluatePolicy(policy, { now: at('2026-12-25T10:00:00Z'), caller: null })).toMatchObject(
      { outcome: 'closed', next_open_at: '2026-12-28T09:00:00+01:00', next_open: 'Monday 09:00' },
    );
    expect(evaluatePolicy(policy, { now: at('2026-12-26T10:00:00Z'), caller: null }).outcome).toBe(
      'closed',
    );
    expect(evaluatePolicy(policy, { now: at('2026-12-18T10:00:00Z'), caller: null }).outcome).toBe(
      'open',
    );
  });

  it('without hours, open every day but the closing days', () => {
    const policy: InboundPolicy = {
      timezone: 'Asia/Kolkata',
      holidays: ['2026-08-15'],
      closed: { action: 'assistant', assistant_id: 'a-1', assistant_version: 3 },
    };
    expect(evaluatePolicy(policy, { now: at('2026-08-14T18:00:00Z'), caller: null })).toMatchObject(
      { outcome: 'open', local_time: '23:30' },
    );
    expect(evaluatePolicy(policy, { now: at('2026-08-15T12:00:00Z'), caller: null })).toMatchObject(
      {
        outcome: 'closed',
        action: 'assistant',
        assistant: { assistant_id: 'a-1', assistant_version: 3 },
        next_open_at: '2026-08-16T00:00:00+05:30',
      },
    );
  });

  it('a number with no opening day is never open again: next_open_at null', () => {
    const result = evaluatePolicy(
      { timezone: 'UTC', hours: {} },
      { now: at('2026-01-01T00:00:00Z'), caller: null },
    );
    expect(result).toMatchObject({ outcome: 'closed', next_open_at: null, next_open: '' });
  });

  it('a denied caller is denied whatever the hours say', () => {
    const policy: InboundPolicy = { ...berlin, callers: { deny: ['+4930*'] } };
    expect(
      evaluatePolicy(policy, { now: at('2026-01-12T08:30:00Z'), caller: '+49 30 1234567' }),
    ).toMatchObject({
      outcome: 'denied',
      action: 'reject',
      message: DENIED_MESSAGE,
      next_open_at: null,
    });
    expect(
      evaluatePolicy(policy, { now: at('2026-01-12T21:40:00Z'), caller: '+4930123' }).outcome,
    ).toBe('denied');
  });

  it('overflow replaces an open outcome with the overflow action', () => {
    const policy: InboundPolicy = {
      max_concurrent_calls: 1,
      overflow: { action: 'reject', message: 'All lines are busy.' },
    };
    const open = evaluatePolicy(policy, { now: at('2026-01-12T08:30:00Z'), caller: null });
    expect(open).toMatchObject({
      outcome: 'open',
      local_time: '08:30',
      local_iso: '2026-01-12T08:30:00+00:00',
    });
    expect(overflowOf(policy, open)).toMatchObject({
      outcome: 'overflow',
      action: 'reject',
      message: 'All lines are busy.',
      next_open_at: null,
    });
  });
});

describe(callerAllowed.name, () => {
  it.each([
    [{}, '+4930123', true],
    [{ deny: ['+4930123'] }, '+49 30 123', false],
    [{ deny: ['+4930*'] }, '+4940123', true],
    [{ allow: ['+4930*'] }, '+4930555', true],
    [{ allow: ['+4930*'] }, '+4940555', false],
    [{ allow: ['+4930*'] }, null, false],
    [{ deny: ['+4930*'] }, null, true],
    [{ allow: ['+49*'], deny: ['+4930*'] }, '+4930555', false], // deny wins
    [{ allow: ['+*'] }, '+14155552671', true],
  ] as const)('callers %j, caller %s → %s', (callers, caller, allowed) => {
    expect(callerAllowed({ callers: { ...callers } as InboundPolicy['callers'] }, caller)).toBe(
      allowed,
    );
  });
});
