import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import { QUEUES } from '../../../src/contracts/queues';
import type { EndCallOutcome } from '../../../src/contracts/end-call-webhook.contract';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { webhookToolBody } from '../../fixtures/tool';
import { answer } from '../../utils/call-producer';
import { appSuite } from '../../utils/create-test-app';

const redisUrl = process.env.REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;

/**
 * What a producer may not decide: the internal `delivery` field of an end-call job (which sets the
 * `webhook-id` and the attempt) and the job options the service owns (`attempts`, `backoff`,
 * `timeout`).
 */
describe('producer-set internal fields and service-owned job options (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  it("ignores a producer's delivery field: the webhook-id and attempt are the service's", async () => {
    const path = `/ended/${randomUUID()}`;
    suite.server.respond(path, { status: 200, body: { ok: true } });
    const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({ assistant_end_call_url: suite.server.url(path) }),
    );
    const room = `room-${randomUUID()}`;
    const outcome = await suite.producer.run<EndCallOutcome>(QUEUES.END_CALL_WEBHOOK, {
      assistant_id,
      room_name: room,
      payload: { room_name: room },
      delivery: { attempt: 3, webhook_id: 'msg_chosen_by_the_producer' },
    });
    expect(outcome).toMatchObject({ status: 'delivered', attempt: 1 });
    const [request] = suite.server.requestsTo(path);
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
      suite.server.respond(path, { status: 200, body: { done: true }, delayMs: 800 });
      const { assistant_id } = await assistantApi(suite.ctx, suite.user).create();
      const { tool_id } = await toolApi(suite.ctx, suite.user).create(
        webhookToolBody({ url: suite.server.url(path), timeout: 5 }),
      );
      await toolApi(suite.ctx, suite.user).attach(assistant_id, [tool_id]);
      const job = await queue.add(
        { tool_id, assistant_id, room_name: `room-${randomUUID()}`, arguments: {} },
        { jobId: randomUUID(), timeout: 50, attempts: 3, backoff: 10 },
      );
      const result = await answer<ToolCallResult>(job);
      expect(result).toMatchObject({ status: 'success' });
      expect(suite.server.requestsTo(path)).toHaveLength(1);
    });
  });
});
