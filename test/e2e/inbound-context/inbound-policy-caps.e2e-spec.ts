import { randomUUID } from 'node:crypto';
import type { CallEndedResult } from '../../../src/contracts/call-ended.contract';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { MetricsService } from '../../../src/metrics/metrics.service';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { CallProducer } from '../../utils/call-producer';
import type { TestContext } from '../../utils/create-test-app';
import { twoProcessesWithUser } from '../../utils/two-processes';

/**
 * A number's cap of concurrent calls: slots counted across processes (two on Redis, one embedded),
 * one per room, freed by the room's end-call job, by a `call-ended` job, or by the lease.
 */
describe('Inbound policy: concurrency caps (e2e)', () => {
  const state = twoProcessesWithUser();
  let producer: CallProducer;
  let assistantId: string;

  beforeAll(async () => {
    producer = new CallProducer(state.a);
    assistantId = (await assistantApi(state.a, state.user).create(assistantBody())).assistant_id;
  });
  afterAll(() => producer.close());

  const numberWith = async (policy: Record<string, unknown>) => {
    const res = await state.a
      .http()
      .post('/inbound/assign')
      .set(state.user.auth)
      .send(inboundBody(assistantId, { policy }))
      .expect(200);
    return res.body.data as { inbound_id: string; phone_number: string };
  };
  /** One lookup run by the lookup service of `ctx`'s process. */
  const lookupIn = (ctx: TestContext, inboundId: string, room: string) =>
    ctx.app.get(InboundContextLookupService).run({ room_name: room, inbound_id: inboundId });
  const lookup = (inboundId: string, room: string) =>
    producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
      room_name: room,
      inbound_id: inboundId,
    });
  const rooms = () => [1, 2, 3].map(() => `room-${randomUUID()}`);

  it('counts one slot per room across processes; at the cap the call overflows with its action', async () => {
    const { inbound_id } = await numberWith({
      max_concurrent_calls: 2,
      overflow: { action: 'reject', message: 'All lines are busy' },
    });
    const [r1, r2, r3] = rooms();
    expect((await lookupIn(state.a, inbound_id, r1)).policy?.outcome).toBe('open');
    // The room's second lookup keeps its slot, on whichever process it runs.
    expect((await lookupIn(state.b, inbound_id, r1)).policy?.outcome).toBe('open');
    expect((await lookupIn(state.b, inbound_id, r2)).policy?.outcome).toBe('open');
    const full = await lookupIn(state.a, inbound_id, r3);
    expect(full).toMatchObject({
      status: 'success',
      prompt: null,
      strategy_id: null,
      policy: {
        outcome: 'overflow',
        action: 'reject',
        message: 'All lines are busy',
        next_open_at: null,
      },
    });
    expect(full.log_id).not.toBeNull();
    // Counted by outcome in the process that ran the lookup.
    const text = await state.a.app.get(MetricsService).metrics();
    expect(text).toMatch(/^inbound_policy_decisions_total\{outcome="overflow"\} [1-9]/m);
    expect(text).toMatch(/^inbound_policy_decisions_total\{outcome="open"\} [1-9]/m);
  });

  it("frees a slot on the room's end-call-webhook job", async () => {
    const { inbound_id } = await numberWith({ max_concurrent_calls: 1 });
    const [r1, r2] = rooms();
    expect((await lookup(inbound_id, r1)).policy?.outcome).toBe('open');
    expect((await lookup(inbound_id, r2)).policy?.outcome).toBe('overflow');
    await producer.run(QUEUES.END_CALL_WEBHOOK, {
      assistant_id: assistantId,
      room_name: r1,
      payload: { ended: true },
    });
    expect((await lookup(inbound_id, r2)).policy?.outcome).toBe('open');
  });

  it('frees a slot on a call-ended job, by room or by room and number', async () => {
    const { inbound_id, phone_number } = await numberWith({
      max_concurrent_calls: 1,
      overflow: { action: 'assistant', assistant_id: assistantId },
    });
    const [r1, r2] = rooms();
    expect((await lookup(inbound_id, r1)).policy?.outcome).toBe('open');
    const over = await lookup(inbound_id, r2);
    expect(over).toMatchObject({
      assistant_id: assistantId,
      policy: { outcome: 'overflow', action: 'assistant' },
    });
    expect(await producer.run<CallEndedResult>(QUEUES.CALL_ENDED, { room_name: r1 })).toEqual({
      released: true,
    });
    expect(await producer.run<CallEndedResult>(QUEUES.CALL_ENDED, { room_name: r1 })).toEqual({
      released: false,
    });
    expect((await lookup(inbound_id, r2)).policy?.outcome).toBe('open');
    expect(
      await producer.run<CallEndedResult>(QUEUES.CALL_ENDED, {
        room_name: r2,
        inbound_number: phone_number,
      }),
    ).toEqual({ released: true });
    expect((await lookup(inbound_id, r1)).policy?.outcome).toBe('open');
  });

  it('refuses a call-ended job without a room', async () => {
    await expect(
      producer.run(QUEUES.CALL_ENDED, { inbound_number: '+4930123456' }),
    ).rejects.toThrow(/room_name/);
  });

  it('frees a slot whose call never ended once its lease (slot_ttl_seconds) runs out', async () => {
    const { inbound_id } = await numberWith({ max_concurrent_calls: 1, slot_ttl_seconds: 60 });
    const [r1, r2] = rooms();
    expect((await lookupIn(state.a, inbound_id, r1)).policy?.outcome).toBe('open');
    expect((await lookupIn(state.a, inbound_id, r2)).policy?.outcome).toBe('overflow');
    const later = Date.now() + 61_000;
    const clock = jest.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect((await lookupIn(state.b, inbound_id, r2)).policy?.outcome).toBe('open');
    } finally {
      clock.mockRestore();
    }
  });
});
