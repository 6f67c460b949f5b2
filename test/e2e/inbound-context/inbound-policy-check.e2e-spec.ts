import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { appSuite } from '../../utils/create-test-app';

/** A Berlin business: weekdays 09:00-18:00, Germany's public holidays closed, Berlin callers refused. */
const policy = {
  timezone: 'Europe/Berlin',
  hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, ['09:00-18:00']])),
  holiday_country: 'DE',
  closed: { action: 'reject', message: 'We are closed.' },
  callers: { deny: ['+4930*'] },
  max_concurrent_calls: 1,
};

describe('POST /inbound/policy-check/:inbound_id (e2e)', () => {
  const suite = appSuite({ users: ['user', 'other'] });
  const check = (id: string, body: Record<string, unknown>, as = suite.user) =>
    suite.ctx.http().post(`/inbound/policy-check/${id}`).set(as.auth).send(body);
  let inboundId: string;
  let plainId: string;

  beforeAll(async () => {
    const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(assistantBody());
    const assign = (body: Record<string, unknown>) =>
      suite.ctx.http().post('/inbound/assign').set(suite.user.auth).send(body).expect(200);
    inboundId = (await assign(inboundBody(assistant_id, { policy }))).body.data.inbound_id;
    plainId = (await assign(inboundBody(assistant_id))).body.data.inbound_id;
  });

  it('answers open inside the hours, with the local time (summer time included)', async () => {
    const res = await check(inboundId, {
      caller_number: '+4940123456',
      at: '2026-07-01T08:30:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      outcome: 'open',
      action: 'continue',
      message: null,
      next_open_at: null,
      local_time: '10:30',
    });
  });

  it("answers closed on the country's public holiday, with the next opening", async () => {
    const res = await check(inboundId, { at: '2026-12-25T10:00:00+01:00' }).expect(200);
    expect(res.body.data).toEqual({
      outcome: 'closed',
      action: 'reject',
      message: 'We are closed.',
      next_open_at: '2026-12-28T09:00:00+01:00',
      local_time: '10:00',
    });
  });

  it('answers denied for a caller the rules refuse, and takes no slot (the cap is 1)', async () => {
    const denied = await check(inboundId, {
      caller_number: '+49 30 1234 567',
      at: '2026-07-01T08:30:00Z',
    });
    expect(denied.body.data).toMatchObject({ outcome: 'denied', action: 'reject' });
    for (let i = 0; i < 2; i++) {
      const open = await check(inboundId, { at: '2026-07-01T08:30:00Z' }).expect(200);
      expect(open.body.data.outcome).toBe('open');
    }
  });

  it('answers open for a number without a policy; UTC local time', async () => {
    const res = await check(plainId, { at: '2026-07-01T08:30:00+02:00' }).expect(200);
    expect(res.body.data).toEqual({
      outcome: 'open',
      action: 'continue',
      message: null,
      next_open_at: null,
      local_time: '06:30',
    });
  });

  it('refuses a malformed moment or caller (400 naming the field), and another owner (404)', async () => {
    let res = await check(inboundId, { at: 'Christmas' });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['at']);
    res = await check(inboundId, { caller_number: 42 });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['caller_number']);
    await check(inboundId, {}, suite.other).expect(404);
  });
});
