import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import Redis, { Cluster } from 'ioredis';
import {
  endCallWebhookContract,
  inboundContextLookupContract,
  toolCallContract,
} from '../../../src/contracts';
import { QUEUES, type QueueName } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { answer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

const redisUrl = process.env.REDIS_URL;
const clusterNodes = process.env.REDIS_CLUSTER_NODES;
const describeRedis = redisUrl || clusterNodes ? describe : describe.skip;

/**
 * A plain producer's queue, written as README shows it: `new Queue(name, REDIS_URL)` on one
 * server; on a cluster the hash-tag prefix `{<queue>}` and a `createClient` returning an ioredis
 * `Cluster` (Bull's blocking and subscriber clients without ready check and retry limit).
 */
function plainQueue(name: QueueName): Bull.Queue {
  if (redisUrl) return new Bull(name, redisUrl);
  const nodes = clusterNodes!.split(',').map((node) => {
    const [host, port] = node.split(':');
    return { host, port: Number(port) };
  });
  return new Bull(name, {
    prefix: `{${name}}`,
    createClient: (type) => {
      const client = new Cluster(nodes, {
        redisOptions:
          type === 'client' ? {} : { enableReadyCheck: false, maxRetriesPerRequest: null },
      });
      clusterClients.push(client);
      return client;
    },
  });
}

/** Bull closes only the clients it made itself: these are closed after the queues. */
const clusterClients: Cluster[] = [];

/** Queues under Bull's default prefix are shared by every run on this Redis: one run at a time. */
const LOCK_KEY = 'e2e:plain-producer:lock';
const LOCK_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function acquireLock(redis: Redis, token: string): Promise<void> {
  for (;;) {
    if ((await redis.set(LOCK_KEY, token, 'PX', LOCK_MS, 'NX')) === 'OK') return;
    await sleep(200);
  }
}

/**
 * The contract as the call stack meets it: a plain `bull` producer with no prefix and no job
 * options, against the service started with its defaults.
 */
describeRedis('plain Bull producer, default prefix (e2e)', () => {
  const token = randomUUID();
  let lock: Redis;
  let ctx: TestContext;
  let server: CustomerServer;
  let user: TestUser;
  const queues = new Map<QueueName, Bull.Queue>();

  const producer = (name: QueueName): Bull.Queue => {
    let queue = queues.get(name);
    if (!queue) {
      queue = plainQueue(name);
      queues.set(name, queue);
    }
    return queue;
  };

  async function obliterateDefaultQueues(): Promise<void> {
    for (const name of [QUEUES.INBOUND_CONTEXT_LOOKUP, QUEUES.TOOL_CALL, QUEUES.END_CALL_WEBHOOK]) {
      await producer(name).obliterate({ force: true });
    }
  }

  beforeAll(async () => {
    lock = redisUrl ? new Redis(redisUrl) : (new Cluster([clusterNodes!.split(',')[0]]) as unknown as Redis);
    await acquireLock(lock, token);
    await obliterateDefaultQueues();
    server = await CustomerServer.start();
    ctx = await createTestApp({
      env: {
        QUEUE_PREFIX: undefined,
        END_CALL_WEBHOOK_BACKOFF_MS: '50',
        END_CALL_WEBHOOK_ATTEMPTS: '3',
      },
    });
    user = await ctx.newUser();
  }, LOCK_MS + 30_000);

  afterAll(async () => {
    await ctx?.close();
    await server?.close();
    await obliterateDefaultQueues().catch(() => undefined);
    await Promise.all([...queues.values()].map((queue) => queue.close()));
    for (const client of clusterClients) client.disconnect();
    if ((await lock.get(LOCK_KEY)) === token) await lock.del(LOCK_KEY);
    lock.disconnect();
  });

  const createAssistant = async (endCallPath?: string): Promise<string> =>
    (
      await assistantApi(ctx, user).create(
        assistantBody(endCallPath ? { assistant_end_call_url: server.url(endCallPath) } : {}),
      )
    ).assistant_id;

  it('answers an inbound-context lookup', async () => {
    server.respond('/plain/context', { body: { context: { name: 'Asha' } } });
    const assistantId = await createAssistant();
    const { inboundId } = await routeNumber(
      ctx,
      user,
      assistantId,
      strategyBody(server.url('/plain/context'), {}, { strategy_name: 'plain producer' }),
    );

    const job = await producer(QUEUES.INBOUND_CONTEXT_LOOKUP).add({
      room_name: `room-${randomUUID()}`,
      inbound_id: inboundId,
    });

    const result = await answer(job);
    expect(inboundContextLookupContract.checkResult(result)).toEqual({ ok: true, data: result });
    expect(result).toMatchObject({
      status: 'success',
      assistant_id: assistantId,
      context: { name: 'Asha' },
      prompt: 'Hello Asha.',
    });
  });

  it('answers a tool call', async () => {
    server.respond('/plain/tool', { body: { temperature: 31 } });
    const assistantId = await createAssistant();
    const tool = await ctx
      .http()
      .post('/tool/create')
      .set(user.auth)
      .send({
        tool_name: 'weather',
        tool_description: 'Weather by city',
        tool_parameters: [{ name: 'city', type: 'string', description: 'City' }],
        tool_execution_type: 'webhook',
        tool_execution_config: { url: server.url('/plain/tool') },
      })
      .expect(200);
    await ctx
      .http()
      .post(`/tool/attach/${assistantId}`)
      .set(user.auth)
      .send({ tool_ids: [tool.body.data.tool_id] })
      .expect(200);

    const job = await producer(QUEUES.TOOL_CALL).add({
      tool_id: tool.body.data.tool_id,
      assistant_id: assistantId,
      room_name: `room-${randomUUID()}`,
      arguments: { city: 'Pune' },
    });

    const result = await answer(job);
    expect(toolCallContract.checkResult(result)).toEqual({ ok: true, data: result });
    expect(result).toMatchObject({ status: 'success', result: { temperature: 31 } });
  });

  it('fails a job holding ill-formed Unicode at once, naming the field', async () => {
    const job = await producer(QUEUES.TOOL_CALL).add({
      tool_id: randomUUID(),
      assistant_id: randomUUID(),
      room_name: `room-${randomUUID()}`,
      arguments: { city: 'Pu\ud800ne' },
    });

    await expect(answer(job)).rejects.toThrow(
      'arguments.city must be well-formed Unicode text (it holds a lone surrogate)',
    );
    expect((await job.queue.getJob(job.id))?.attemptsMade).toBe(1);
  });

  it('delivers an end-call payload', async () => {
    const assistantId = await createAssistant('/plain/end-call');
    const payload = { call_id: randomUUID(), duration_seconds: 42 };

    const job = await producer(QUEUES.END_CALL_WEBHOOK).add({
      assistant_id: assistantId,
      room_name: `room-${randomUUID()}`,
      payload,
    });

    const result = await answer(job);
    expect(endCallWebhookContract.checkResult(result)).toEqual({ ok: true, data: result });
    expect(result).toMatchObject({ status: 'delivered', status_code: 200 });
    expect(server.requestsTo('/plain/end-call').map((r) => r.json)).toEqual([payload]);
  });

  it('retries an end-call delivery added with no options: fails twice, delivered on the third attempt, one webhook-id', async () => {
    let n = 0;
    server.respond('/plain/end-call-flaky', () => (++n <= 2 ? { status: 503 } : { status: 200 }));
    const assistantId = await createAssistant('/plain/end-call-flaky');
    const roomName = `room-${randomUUID()}`;
    const payload = { call_id: randomUUID() };

    const job = await producer(QUEUES.END_CALL_WEBHOOK).add({
      assistant_id: assistantId,
      room_name: roomName,
      payload,
    });
    // The producer's job is the first attempt: it completes saying the service will retry.
    expect(await answer(job)).toMatchObject({ status: 'retry', status_code: 503, attempt: 1 });

    const requests = await server.waitForRequests('/plain/end-call-flaky', 3, 15_000);
    await sleep(300);
    expect(server.requestsTo('/plain/end-call-flaky')).toHaveLength(3);
    expect(requests.map((r) => r.json)).toEqual([payload, payload, payload]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const logs = await ctx
      .http()
      .get('/logs')
      .query({ room_name: roomName, log_type: 'end_call_webhook' })
      .set(user.auth)
      .expect(200);
    expect(
      (logs.body.data.logs as { status: string; request_data: { attempt: number } }[])
        .map((l) => [l.request_data.attempt, l.status])
        .reverse(),
    ).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'success'],
    ]);
  });

  it('a producer asking for attempts does not multiply the service retries', async () => {
    server.respond('/plain/end-call-down', { status: 500 });
    const assistantId = await createAssistant('/plain/end-call-down');
    await producer(QUEUES.END_CALL_WEBHOOK).add(
      { assistant_id: assistantId, room_name: `room-${randomUUID()}`, payload: {} },
      { attempts: 10, backoff: 10 },
    );
    // END_CALL_WEBHOOK_ATTEMPTS is 3 in this app (50 + 100 ms of backoff).
    await server.waitForRequests('/plain/end-call-down', 3, 15_000);
    await sleep(1000);
    expect(server.requestsTo('/plain/end-call-down')).toHaveLength(3);
  });
});
