import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import { QUEUES } from '../../../src/contracts/queues';
import type { EndCallOutcome } from '../../../src/contracts/end-call-webhook.contract';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { webhookToolBody } from '../../fixtures/tool';
import { answer, CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

const redisUrl = process.env.REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;

/**
 * What a producer may not decide: the internal `delivery` field of an end-call job (which sets the
 * `webhook-id` and the attempt) and the job options the service owns (`attempts`, `backoff`,
 * `timeout`).
 */
describe('producer-set internal fields and service-owned job options (e2e)', () => {
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

  it("ignores a producer's delivery field: the webhook-id and attempt are the service's", async () => {
    const path = `/ended/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const { assistant_id } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: server.url(path) }),
    );
    const room = `room-${randomUUID()}`;
    const outcome = await producer.run<EndCallOutcome>(QUEUES.END_CALL_WEBHOOK, {
      assistant_id,
      room_name: room,
      payload: { room_name: room },
      delivery: { attempt: 3, webhook_id: 'msg_chosen_by_the_producer' },
    });
    expect(outcome).toMatchObject({ status: 'delivered', attempt: 1 });
    const [request] = server.requestsTo(path);
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['webhook-id']).not.toBe('msg_chosen_by_the_producer');
  });

  describeRedis('on Redis, options a producer adds the job with', () => {
    let queue: Bull.Queue;

    beforeAll(() => {
      queue = new Bull(QUEUES.TOOL_CALL, redisUrl!, { prefix: process.env.QUEUE_PREFIX });
    });

    afterAll(async () => {
      await queue?.close();
    });

    it('a short timeout and extra attempts are overridden: the job waits for its answer, one request', async () => {
      const path = `/tool/${randomUUID()}`;
      server.respond(path, { status: 200, body: { done: true }, delayMs: 800 });
      const { assistant_id } = await assistantApi(ctx, user).create();
      const { tool_id } = await toolApi(ctx, user).create(
        webhookToolBody({ url: server.url(path), timeout: 5 }),
      );
      await toolApi(ctx, user).attach(assistant_id, [tool_id]);
      const job = await queue.add(
        { tool_id, assistant_id, room_name: `room-${randomUUID()}`, arguments: {} },
        { jobId: randomUUID(), timeout: 50, attempts: 3, backoff: 10 },
      );
      const result = await answer<ToolCallResult>(job);
      expect(result).toMatchObject({ status: 'success' });
      expect(server.requestsTo(path)).toHaveLength(1);
    });
  });
});
