import { randomUUID } from 'node:crypto';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { DENIED_MESSAGE } from '../../../src/inbound-policy/evaluate-policy';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { appSuite } from '../../utils/create-test-app';

/** A policy with every field. */
const fullPolicy = (assistantId: string) => ({
  timezone: 'Europe/Berlin',
  hours: { mon: ['09:00-14:00', '16:00-20:00'], sat: ['00:00-24:00'] },
  holidays: ['2026-12-24'],
  holiday_country: 'DE',
  closed: { action: 'assistant', assistant_id: assistantId, message: 'After hours' },
  callers: { allow: ['+49*'], deny: ['+4930666*'] },
  max_concurrent_calls: 3,
  overflow: { action: 'reject', message: 'All lines are busy' },
});

describe('Inbound policy on a mapping (e2e)', () => {
  const suite = appSuite({ users: ['user', 'other'], producer: true });
  const http = () => suite.ctx.http();
  const assign = (body: Record<string, unknown>, as = suite.user) =>
    http().post('/inbound/assign').set(as.auth).send(body);
  const update = (id: string, body: Record<string, unknown>) =>
    http().patch(`/inbound/update/${id}`).set(suite.user.auth).send(body);
  const fieldsOf = (res: { body: { data: { errors: Array<{ field: string }> } } }) =>
    res.body.data.errors.map((e) => e.field);
  let assistantId: string;
  let othersAssistant: string;

  beforeAll(async () => {
    assistantId = (await assistantApi(suite.ctx, suite.user).create(assistantBody())).assistant_id;
    othersAssistant = (await assistantApi(suite.ctx, suite.other).create(assistantBody()))
      .assistant_id;
  });

  it('stores a policy on assign, shows it on details and list, replaces it on update, null removes it', async () => {
    const created = await assign(inboundBody(assistantId, { policy: fullPolicy(assistantId) }));
    expect(created.status).toBe(200);
    const expected = { ...fullPolicy(assistantId), slot_ttl_seconds: 14400 };
    expect(created.body.data.policy).toEqual(expected);
    const id = created.body.data.inbound_id as string;
    const read = await http().get(`/inbound/details/${id}`).set(suite.user.auth).expect(200);
    expect(read.body.data.policy).toEqual(expected);
    const list = await http().get('/inbound/list?limit=100').set(suite.user.auth).expect(200);
    const listed = list.body.data.items.find((m: { inbound_id: string }) => m.inbound_id === id);
    expect(listed.policy).toEqual(expected);

    let res = await update(id, { policy: { max_concurrent_calls: 1, slot_ttl_seconds: 60 } });
    expect(res.status).toBe(200);
    expect(res.body.data.policy).toEqual({ max_concurrent_calls: 1, slot_ttl_seconds: 60 });
    res = await update(id, { is_active: true }).expect(200);
    expect(res.body.data.policy).toEqual({ max_concurrent_calls: 1, slot_ttl_seconds: 60 });
    res = await update(id, { policy: null }).expect(200);
    expect(res.body.data.policy).toBeNull();
    const plain = await assign(inboundBody(assistantId)).expect(200);
    expect(plain.body.data.policy).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'policy.timezone'],
    ['hours without a time zone', { hours: { mon: ['09:00-10:00'] } }, 'policy.timezone'],
    [
      '25:00',
      { timezone: 'UTC', hours: { mon: ['09:00-10:00', '25:00-26:00'] } },
      'policy.hours.mon[1]',
    ],
    [
      'a reversed range',
      { timezone: 'UTC', hours: { tue: ['10:00-09:00'] } },
      'policy.hours.tue[0]',
    ],
    [
      'overlapping ranges',
      { timezone: 'UTC', hours: { wed: ['09:00-12:00', '11:00-13:00'] } },
      'policy.hours.wed[1]',
    ],
    [
      'five ranges a day',
      {
        timezone: 'UTC',
        hours: { thu: ['01:00-02:00', '03:00-04:00', '05:00-06:00', '07:00-08:00', '09:00-10:00'] },
      },
      'policy.hours.thu',
    ],
    [
      'an unknown weekday',
      { timezone: 'UTC', hours: { monday: ['09:00-10:00'] } },
      'policy.hours.monday',
    ],
    [
      'a malformed holiday',
      { timezone: 'UTC', holidays: ['2026-01-01', '2026-13-01'] },
      'policy.holidays[1]',
    ],
    ['an unknown country', { timezone: 'UTC', holiday_country: 'XX' }, 'policy.holiday_country'],
    ['a lower-case country', { timezone: 'UTC', holiday_country: 'de' }, 'policy.holiday_country'],
    ['a malformed caller', { callers: { deny: ['+4930*', '4930'] } }, 'policy.callers.deny[1]'],
    ['max_concurrent_calls 0', { max_concurrent_calls: 0 }, 'policy.max_concurrent_calls'],
    ['max_concurrent_calls 10001', { max_concurrent_calls: 10001 }, 'policy.max_concurrent_calls'],
    ['slot_ttl_seconds 59', { slot_ttl_seconds: 59 }, 'policy.slot_ttl_seconds'],
    ['an unknown action', { closed: { action: 'voicemail' } }, 'policy.closed.action'],
    [
      'assistant without assistant_id',
      { closed: { action: 'assistant' } },
      'policy.closed.assistant_id',
    ],
    [
      'assistant_version on overflow',
      { overflow: { action: 'reject', assistant_version: 1 } },
      'policy.overflow.assistant_version',
    ],
  ])('refuses %s: 400 naming the field', async (_what, policy, field) => {
    const res = await assign(inboundBody(assistantId, { policy }));
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual([field]);
  });

  it('refuses an assistant action naming an assistant the caller does not own, or a version not published', async () => {
    let res = await assign(
      inboundBody(assistantId, {
        policy: { closed: { action: 'assistant', assistant_id: othersAssistant } },
      }),
    );
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['policy.closed.assistant_id']);
    res = await assign(
      inboundBody(assistantId, {
        policy: { overflow: { action: 'assistant', assistant_id: othersAssistant } },
      }),
    );
    expect(fieldsOf(res)).toEqual(['policy.overflow.assistant_id']);
    res = await assign(
      inboundBody(assistantId, {
        policy: {
          closed: { action: 'assistant', assistant_id: assistantId, assistant_version: 7 },
        },
      }),
    );
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['policy.closed.assistant_version']);
    const created = await assign(inboundBody(assistantId)).expect(200);
    const upd = await update(created.body.data.inbound_id as string, {
      policy: { timezone: 'UTC', hours: { fri: ['09:00-24:30'] } },
    });
    expect(upd.status).toBe(400);
    expect(fieldsOf(upd)).toEqual(['policy.hours.fri[0]']);
  });

  describe('the lookup enforces it', () => {
    const ALL_WEEK = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ['00:00-24:00']]),
    );
    const lookup = (inboundId: string, caller = '+14155552671') =>
      suite.producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
        room_name: `room-${randomUUID()}`,
        inbound_id: inboundId,
        caller_number: caller,
      });
    const numberWith = async (policy: Record<string, unknown>, assistant = assistantId) =>
      (await assign(inboundBody(assistant, { policy })).expect(200)).body.data.inbound_id as string;
    let valuesAssistant: string;
    let afterHours: string;

    beforeAll(async () => {
      const api = assistantApi(suite.ctx, suite.user);
      valuesAssistant = (
        await api.create(
          assistantBody({
            assistant_prompt:
              'at {{call.local_time}} on {{call.local_date}}, open={{call.is_open}}, next={{call.next_open}}',
          }),
        )
      ).assistant_id;
      afterHours = (
        await api.create(
          assistantBody({
            assistant_prompt: 'After hours (open={{call.is_open}}, again {{call.next_open}})',
          }),
        )
      ).assistant_id;
    });

    it('open: the assistant answers, the prompt renders the local time, and the result carries the decision', async () => {
      const id = await numberWith({ timezone: 'Asia/Kolkata', hours: ALL_WEEK }, valuesAssistant);
      const result = await lookup(id);
      expect(result.policy).toEqual({
        outcome: 'open',
        action: 'continue',
        message: null,
        next_open_at: null,
      });
      expect(result.prompt).toMatch(/^at \d{2}:\d{2} on \d{4}-\d{2}-\d{2}, open=true, next=$/);
    });

    it('closed with reject: status success, no prompt, the message, the strategy not called', async () => {
      const id = await numberWith({
        timezone: 'Europe/Berlin',
        hours: {},
        closed: { action: 'reject', message: 'We are closed.' },
      });
      const result = await lookup(id);
      expect(result).toMatchObject({
        status: 'success',
        prompt: null,
        policy: {
          outcome: 'closed',
          action: 'reject',
          message: 'We are closed.',
          next_open_at: null,
        },
      });
      expect(result.log_id).not.toBeNull();
    });

    it('closed on a holiday with an assistant action: that assistant answers, rendered with the call values', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const id = await numberWith({
        timezone: 'UTC',
        hours: ALL_WEEK,
        holidays: [today],
        closed: { action: 'assistant', assistant_id: afterHours },
      });
      const result = await lookup(id);
      expect(result).toMatchObject({
        status: 'success',
        assistant_id: afterHours,
        policy: { outcome: 'closed', action: 'assistant', message: null },
      });
      expect(result.prompt).toMatch(/^After hours \(open=false, again [A-Z][a-z]+day 00:00\)$/);
      expect(result.policy?.next_open_at).toMatch(/T00:00:00\+00:00$/);
    });

    it('a denied caller is rejected; with an allow list only its callers pass', async () => {
      const denying = await numberWith({ callers: { deny: ['+4930*'] } });
      expect((await lookup(denying, '+49 30 1234567')).policy).toMatchObject({
        outcome: 'denied',
        action: 'reject',
      });
      expect((await lookup(denying, '+494012345678')).policy?.outcome).toBe('open');
      const allowing = await numberWith({ callers: { allow: ['+4940*'] } });
      const denied = await lookup(allowing, '+49301234567');
      expect(denied).toMatchObject({
        status: 'success',
        prompt: null,
        policy: { outcome: 'denied', message: DENIED_MESSAGE },
      });
      expect((await lookup(allowing, '+494012345678')).policy?.outcome).toBe('open');
    });

    it('GET /logs filters lookups by policy_outcome (400 naming it for an unknown outcome)', async () => {
      const id = await numberWith({ callers: { deny: ['+4930*'] } });
      const denied = await lookup(id, '+4930123456');
      // An open call of a number without a strategy writes no entry: the closed one stands beside it.
      const closed = await lookup(
        await numberWith({ timezone: 'UTC', hours: {}, closed: { action: 'reject' } }),
      );
      const logs = async (outcome: string) => {
        const res = await http()
          .get(`/logs?policy_outcome=${outcome}&limit=100`)
          .set(suite.user.auth)
          .expect(200);
        return res.body.data as {
          total: number;
          logs: { log_id: string; response_data: { policy: { outcome: string } } }[];
        };
      };
      const deniedLogs = await logs('denied');
      expect(deniedLogs.logs.map((l) => l.log_id)).toContain(denied.log_id);
      expect(deniedLogs.logs.map((l) => l.log_id)).not.toContain(closed.log_id);
      expect(deniedLogs.total).toBe(deniedLogs.logs.length);
      for (const entry of deniedLogs.logs)
        expect(entry.response_data.policy.outcome).toBe('denied');
      expect((await logs('closed')).logs.map((l) => l.log_id)).toContain(closed.log_id);
      expect((await logs('open')).logs.map((l) => l.log_id)).not.toContain(denied.log_id);
      const bad = await http().get('/logs?policy_outcome=maybe').set(suite.user.auth);
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['policy_outcome']);
    });

    it('a mapping without a policy answers policy: null', async () => {
      const id = (await assign(inboundBody(assistantId)).expect(200)).body.data
        .inbound_id as string;
      expect((await lookup(id)).policy).toBeNull();
    });
  });
});
