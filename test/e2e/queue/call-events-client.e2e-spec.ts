import { CallEventsClient } from '../../../src/client';
import { jobQueueToken } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { staticToolBody } from '../../fixtures/tool';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

const BACKOFF_MS = 50;

/** The shipped producer client for tool calls and end-call deliveries, in whichever mode the suite runs. */
describe('CallEventsClient (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let user: TestUser;
  let client: CallEventsClient;

  beforeAll(async () => {
    server = await CustomerServer.start();
    // The retry policy is the service's: the client has no end-call retry options.
    ctx = await createTestApp({ env: { END_CALL_WEBHOOK_BACKOFF_MS: String(BACKOFF_MS) } });
    user = await ctx.newUser();
    const redisUrl = process.env.REDIS_URL;
    const clusterNodes = process.env.REDIS_CLUSTER_NODES;
    client = clusterNodes
      ? CallEventsClient.fromRedisCluster(clusterNodes, { prefix: process.env.QUEUE_PREFIX })
      : redisUrl
        ? CallEventsClient.fromRedisUrl(redisUrl, { prefix: process.env.QUEUE_PREFIX })
        : new CallEventsClient(
            ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL)),
            ctx.app.get(jobQueueToken(QUEUES.END_CALL_WEBHOOK)),
          );
  });

  afterAll(async () => {
    await client.close();
    await ctx.close();
    await server.close();
  });

  const assistant = async (endCallPath?: string): Promise<string> =>
    (
      await assistantApi(ctx, user).create(
        assistantBody(endCallPath ? { assistant_end_call_url: server.url(endCallPath) } : {}),
      )
    ).assistant_id;

  it('runs a tool call and returns its answer', async () => {
    const assistantId = await assistant();
    const tool = await toolApi(ctx, user).create(
      staticToolBody('opening_hours', { open: '09:00', close: '17:00' }, 'Opening hours'),
    );
    await toolApi(ctx, user).attach(assistantId, [tool.tool_id]);
    const result = await client.callTool(
      {
        tool_id: tool.tool_id,
        assistant_id: assistantId,
        room_name: 'room-client',
        arguments: {},
      },
      { waitMs: 10_000 },
    );
    expect(result).toMatchObject({
      status: 'success',
      result: { open: '09:00', close: '17:00' },
      error: null,
    });
  });

  it('delivers an end-call payload with retries on 5xx, one webhook-id across attempts', async () => {
    let n = 0;
    server.respond('/ended', () => (++n < 3 ? { status: 503 } : { status: 204 }));
    const assistantId = await assistant('/ended');
    await client.sendEndCall({
      assistant_id: assistantId,
      room_name: 'room-ended',
      payload: { duration: 42 },
    });
    const requests = await server.waitForRequests('/ended', 3, 10_000);
    expect(requests.map((r) => r.json)).toEqual([
      { duration: 42 },
      { duration: 42 },
      { duration: 42 },
    ]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('hands the same delivery over once when a delivery id is given twice', async () => {
    server.respond('/once', { status: 200 });
    const assistantId = await assistant('/once');
    const data = { assistant_id: assistantId, room_name: 'room-once', payload: { ok: true } };
    const first = await client.sendEndCall(data, { deliveryId: `end-${assistantId}` });
    const second = await client.sendEndCall(data, { deliveryId: `end-${assistantId}` });
    expect(second).toBe(first);
    await server.waitForRequests('/once', 1, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(server.requestsTo('/once')).toHaveLength(1);
  });
});
