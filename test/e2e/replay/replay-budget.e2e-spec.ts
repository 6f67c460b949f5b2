import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { toolApi } from '../../api/tool-api';
import { webhookToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

/** Longer than the default request budget (`REQUEST_TIMEOUT_MS`, 5 s). */
const SLOW_MS = 6500;

/**
 * A replay whose request takes longer than the default request budget: the route waits for it
 * (its budget covers the tool's timeout), and a retry with the same `Idempotency-Key` never sends
 * the request a second time.
 */
describe('replay slower than the default request budget (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let producer: CallProducer;
  let user: TestUser;

  beforeAll(async () => {
    server = await CustomerServer.start();
    ctx = await createTestApp();
    producer = new CallProducer(ctx);
    user = await ctx.newUser();
  });

  afterAll(async () => {
    await producer?.close();
    await ctx?.close();
    await server?.close();
  });

  it('answers the replay with its entry and replays that answer to a retry: one delivery', async () => {
    const path = `/slow-tool/${randomUUID()}`;
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody({ url: server.url(path), timeout: 10 }),
    );
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    server.respond(path, { status: 410, body: { error: 'gone for now' } });
    const room = `room-${randomUUID()}`;
    const result = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: room,
      arguments: {},
    });
    expect(result).toMatchObject({ status: 'error' });
    const [failed] = (await logsApi(ctx, user).page({ room_name: room })).logs;

    server.respond(path, { status: 200, body: { done: true }, delayMs: SLOW_MS });
    const key = `replay-${randomUUID()}`;
    const replay = () =>
      ctx.http().post(`/logs/replay/${failed.log_id}`).set(user.auth).set('Idempotency-Key', key);
    const first = replay().then((res) => res);
    await server.waitForRequests(path, 2, 5000);
    // While the first still runs, its key stays claimed.
    expect((await replay()).status).toBe(409);
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ status: 'success', replay_of: failed.log_id });

    const again = await replay().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(answered.body);
    // The original request and exactly one replay.
    expect(server.requestsTo(path)).toHaveLength(2);
    const entries = (await logsApi(ctx, user).page({ room_name: room })).logs;
    expect(entries.filter((e) => e.replay_of === failed.log_id)).toHaveLength(1);
  }, 40_000);
});
