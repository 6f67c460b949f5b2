import { CallEventsClient } from '@voice-assistant-config/client';
import { jobQueueToken } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';

const BACKOFF_MS = 50;

/** The shipped producer client for tool calls and end-call deliveries, in whichever mode the suite runs. */
describe('CallEventsClient (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    server: true,
    // The retry policy is the service's: the client has no end-call retry options.
    app: { env: { END_CALL_WEBHOOK_BACKOFF_MS: String(BACKOFF_MS) } },
  });
  let client: CallEventsClient;

  beforeAll(() => {
    const redisUrl = process.env.REDIS_URL;
    const clusterNodes = process.env.REDIS_CLUSTER_NODES;
    client = clusterNodes
      ? CallEventsClient.fromRedisCluster(clusterNodes, { prefix: process.env.QUEUE_PREFIX })
      : redisUrl
        ? CallEventsClient.fromRedisUrl(redisUrl, { prefix: process.env.QUEUE_PREFIX })
        : new CallEventsClient(
            suite.ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL)),
            suite.ctx.app.get(jobQueueToken(QUEUES.END_CALL_WEBHOOK)),
            suite.ctx.app.get(jobQueueToken(QUEUES.CALL_ENDED)),
          );
  });

  afterAll(async () => {
    await client.close();
  });

  const assistant = async (endCallPath?: string): Promise<string> =>
    (
      await assistantApi(suite.ctx, suite.user).create(
        assistantBody(endCallPath ? { assistant_end_call_url: suite.server.url(endCallPath) } : {}),
      )
    ).assistant_id;

  it('runs a tool call and returns its answer', async () => {
    const assistantId = await assistant();
    const tool = await toolApi(suite.ctx, suite.user).create(
      staticToolBody('opening_hours', { open: '09:00', close: '17:00' }, 'Opening hours'),
    );
    await toolApi(suite.ctx, suite.user).attach(assistantId, [tool.tool_id]);
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
    suite.server.respond('/ended', () => (++n < 3 ? { status: 503 } : { status: 204 }));
    const assistantId = await assistant('/ended');
    await client.sendEndCall({
      assistant_id: assistantId,
      room_name: 'room-ended',
      payload: { duration: 42 },
    });
    const requests = await suite.server.waitForRequests('/ended', 3, 10_000);
    expect(requests.map((r) => r.json)).toEqual([
      { duration: 42 },
      { duration: 42 },
      { duration: 42 },
    ]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('hands the same delivery over once when a delivery id is given twice', async () => {
    suite.server.respond('/once', { status: 200 });
    const assistantId = await assistant('/once');
    const data = { assistant_id: assistantId, room_name: 'room-once', payload: { ok: true } };
    const first = await client.sendEndCall(data, { deliveryId: `end-${assistantId}` });
    const second = await client.sendEndCall(data, { deliveryId: `end-${assistantId}` });
    expect(second).toBe(first);
    await suite.server.waitForRequests('/once', 1, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(suite.server.requestsTo('/once')).toHaveLength(1);
  });

  it('says a call ended on the call-ended queue: a room without a slot releases nothing', async () => {
    await expect(client.endCall({ room_name: 'room-no-slot' }, { waitMs: 10_000 })).resolves.toEqual(
      { released: false },
    );
  });

  it('refuses call-ended data the service would refuse, naming the field, before queueing it', async () => {
    await expect(client.endCall({ room_name: '' }, { waitMs: 1_000 })).rejects.toThrow(
      /invalid call-ended data: room_name/,
    );
  });
});
