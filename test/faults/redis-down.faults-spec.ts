import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../src/contracts/inbound-context-lookup.contract';
import {
  JobWaitTimeoutError,
  jobQueueToken,
  QueueUnavailableError,
  type JobQueue,
} from '../../src/queue/job-queue';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, QUEUES } from '../../src/contracts/queues';
import type { TestContext, TestUser } from '../utils/create-test-app';
import type { CustomerServer } from '../utils/customer-server';
import {
  bootApi,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  type Scenario,
} from './support/harness';
import { type PrivateRedis, sleep, waitUntil } from './support/services';

const WAIT_MS = 3000;
/** Slack on top of a producer's `waitMs` for "answered within its wait". */
const SLACK_MS = 750;

/**
 * Scenario 1: Redis dies under a running API (role `all`: it serves HTTP and consumes in-process
 * through Bull, with Redis-backed rate limiting ON, as in production). CRUD must keep working,
 * /health must say `degraded`, producers must get an error within their wait, and everything must
 * come back when Redis does, without restarting the API.
 */
describe('Fault: Redis stopped while the API serves', () => {
  let redis: PrivateRedis;
  let server: CustomerServer;
  let ctx: TestContext;
  /** A second API process on the same backends with Redis-backed rate limiting on. */
  let limited: TestContext;
  let user: TestUser;
  let queue: JobQueue<InboundContextLookupJobData, InboundContextLookupResult>;
  let client: InboundContextLookupClient;
  let scenario: Scenario | undefined;
  let inboundId: string;
  const figures: Record<string, unknown> = {};
  const outageRooms: string[] = [];

  const lookupData = (room: string): InboundContextLookupJobData => ({
    room_name: room,
    inbound_id: inboundId,
    caller_number: '+15550001111',
  });
  const http = () => ctx.http();

  beforeAll(async () => {
    scenario = await startScenario('all', { RATE_LIMIT_PER_MINUTE: '0' }, (customer) =>
      customer.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } }),
    );
    const { backends } = scenario;
    ({ redis, server, ctx, user } = scenario);
    limited = await bootApi(backends, 'api', {
      RATE_LIMIT_PER_MINUTE: '100000',
      DB_MIGRATIONS_RUN: 'false',
    });
    ({ inboundId } = await createLookupSetup(ctx, user, server, '/ctx', { timeout_seconds: 2 }));
    queue = ctx.app.get(jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
    client = InboundContextLookupClient.fromRedisUrl(redis.url, { prefix: backends.queuePrefix });
  }, 180_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await limited?.close().catch(() => undefined);
    await endScenario('redis-down', figures, scenario);
  }, 60_000);

  it('serves, reports ok and answers lookups while Redis is up (baseline)', async () => {
    const health = await http().get('/health').expect(200);
    expect(health.body.data.status).toBe('ok');
    const viaApp = await queue.request(lookupData(`room-${randomUUID()}`), {
      ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS,
      waitMs: 10_000,
    });
    expect(viaApp.status).toBe('success');
    expect(viaApp.prompt).toBe('Hello Ada.');
    const viaClient = await client.lookup(lookupData(`room-${randomUUID()}`), { waitMs: 10_000 });
    expect(viaClient.status).toBe('success');
  });

  const createBody = (name: string) => ({
    assistant_name: name,
    assistant_description: 'Created while Redis is down',
    assistant_prompt: 'Hi',
    assistant_tts_model: 'cartesia',
    assistant_tts_config: { voice_id: 'voice-1' },
  });

  /** Create + read one assistant through `app`; returns the timings and statuses. */
  async function crudRoundTrip(app: TestContext, name: string) {
    const create = await timed(() =>
      app.http().post('/assistant/create').set(user.auth).timeout(20_000).send(createBody(name)),
    );
    const id = create.value?.body?.data?.assistant_id as string | undefined;
    const read = id
      ? await timed(() => app.http().get(`/assistant/details/${id}`).set(user.auth).timeout(20_000))
      : undefined;
    return {
      createStatus: create.value?.status ?? String(create.error),
      createMs: create.ms,
      readStatus: read?.value?.status,
      readMs: read?.ms,
      readName: read?.value?.body?.data?.assistant_name as string | undefined,
    };
  }

  it('says degraded on /health (200) and not ready on /health/ready (503) once Redis is killed', async () => {
    await redis.kill();
    figures.redis_killed_at = new Date().toISOString();
    const health = await timed(() => http().get('/health').timeout(15_000));
    figures.health_degraded_ms = health.ms;
    expect(health.value?.status).toBe(200);
    expect(health.value!.body).toMatchObject({
      success: true,
      data: {
        status: 'degraded',
        details: { database: { status: 'up' }, redis: { status: 'down' } },
      },
    });
    expect(health.ms).toBeLessThan(2500);
    const ready = await http().get('/health/ready').timeout(15_000);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ success: false, data: { status: 'degraded' } });
  });

  it('keeps CRUD working while Redis is down (rate limiting off)', async () => {
    const crud = await crudRoundTrip(ctx, 'Made during the outage');
    figures.crud_no_rate_limit = crud;
    expect(crud).toMatchObject({
      createStatus: 200,
      readStatus: 200,
      readName: 'Made during the outage',
    });
    expect(crud.createMs).toBeLessThan(3000);
    expect(crud.readMs).toBeLessThan(3000);
  });

  it('keeps CRUD working while Redis is down with Redis-backed rate limiting on (production default)', async () => {
    const crud = await crudRoundTrip(limited, 'Made during the outage, rate limited');
    figures.crud_with_rate_limit = crud;
    expect(crud).toMatchObject({
      createStatus: 200,
      readStatus: 200,
      readName: 'Made during the outage, rate limited',
    });
    expect(crud.createMs).toBeLessThan(3000);
    expect(crud.readMs).toBeLessThan(3000);
  });

  it('fails producers within their wait while Redis is down', async () => {
    // The API's own producer (what any in-service caller uses).
    const room1 = `room-outage-${randomUUID()}`;
    outageRooms.push(room1);
    const viaApp = await timed(() =>
      // Like the shipped client, an in-service producer states when it stops waiting.
      queue.request(
        { ...lookupData(room1), deadline_at: Date.now() + WAIT_MS },
        { ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, waitMs: WAIT_MS },
      ),
    );
    figures.producer_error_ms = viaApp.ms;
    figures.producer_error =
      viaApp.error instanceof Error ? viaApp.error.name : String(viaApp.error);
    expect(viaApp.error).toBeDefined();
    expect(
      viaApp.error instanceof QueueUnavailableError || viaApp.error instanceof JobWaitTimeoutError,
    ).toBe(true);
    expect(viaApp.ms).toBeLessThan(WAIT_MS + SLACK_MS);

    // The shipped call-stack client.
    const room2 = `room-outage-${randomUUID()}`;
    outageRooms.push(room2);
    const viaClient = await timed(() => client.lookup(lookupData(room2), { waitMs: WAIT_MS }));
    figures.client_error_ms = viaClient.ms;
    figures.client_error =
      viaClient.error instanceof Error ? viaClient.error.name : String(viaClient.error);
    expect(
      viaClient.error instanceof QueueUnavailableError ||
        viaClient.error instanceof JobWaitTimeoutError,
    ).toBe(true);
    expect(viaClient.ms).toBeLessThan(WAIT_MS + SLACK_MS);

    // Many at once: none may hang past its wait.
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => {
        const room = `room-outage-${randomUUID()}`;
        outageRooms.push(room);
        return timed(() => client.lookup(lookupData(room), { waitMs: WAIT_MS }));
      }),
    );
    figures.burst_max_error_ms = Math.max(...burst.map((b) => b.ms));
    expect(
      burst.every(
        (b) => b.error instanceof QueueUnavailableError || b.error instanceof JobWaitTimeoutError,
      ),
    ).toBe(true);
    expect(Math.max(...burst.map((b) => b.ms))).toBeLessThan(WAIT_MS + SLACK_MS);
  });

  it('recovers when Redis comes back, without restarting the API', async () => {
    const restartedAt = Date.now();
    figures.redis_start_ms = await redis.start();
    const healthTrace: string[] = [];
    figures.health_ok_after_restart_ms = await waitUntil(
      '/health/ready to be 200 again',
      async () => {
        const res = await http().get('/health/ready').timeout(5000);
        const redisDetail = res.body?.data?.details?.redis as
          { status?: string; message?: string } | undefined;
        const line =
          `${res.status} ${redisDetail?.status ?? '?'} ${redisDetail?.message ?? ''}`.trim();
        if (healthTrace[healthTrace.length - 1]?.endsWith(line) !== true)
          healthTrace.push(`+${Date.now() - restartedAt}ms ${line}`);
        return res.status === 200;
      },
      30_000,
      200,
    );
    figures.health_trace = healthTrace;
    // Reconnect attempts are at most 2 s apart (redisRetryStrategy), so health is back within a
    // few seconds of Redis (Bull's default backoff grew towards 20 s).
    expect(figures.health_ok_after_restart_ms).toBeLessThan(5_000);

    // The first lookup after the restart, retried (bounded) until it succeeds; its time is the recovery.
    let viaApp: InboundContextLookupResult | undefined;
    figures.app_lookup_ok_after_restart_ms = await waitUntil(
      'an in-service lookup to succeed',
      async () => {
        viaApp = await queue.request(lookupData(`room-${randomUUID()}`), {
          ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS,
          waitMs: 5000,
        });
        return viaApp.status === 'success';
      },
      30_000,
      200,
    );
    figures.app_lookup_ok_since_restart_ms = Date.now() - restartedAt;
    expect(viaApp?.prompt).toBe('Hello Ada.');

    const viaClient = await timed(() =>
      client.lookup(lookupData(`room-${randomUUID()}`), { waitMs: 10_000 }),
    );
    figures.client_lookup_after_recovery_ms = viaClient.ms;
    expect(viaClient.error).toBeUndefined();
    expect(viaClient.value?.status).toBe('success');

    const after = await crudRoundTrip(ctx, 'After the outage');
    expect(after).toMatchObject({ createStatus: 200, readStatus: 200 });
    const afterLimited = await crudRoundTrip(limited, 'After the outage, rate limited');
    figures.crud_with_rate_limit_after_recovery = afterLimited;
    expect(afterLimited).toMatchObject({ createStatus: 200, readStatus: 200 });
  });

  it('does not run, after recovery, the lookups producers were told had failed', async () => {
    await sleep(3000);
    const late = server
      .requestsTo('/ctx')
      .filter((r) =>
        outageRooms.includes((r.json as { room_name?: string } | undefined)?.room_name ?? ''),
      );
    figures.outage_lookups_run_after_recovery = `${late.length} of ${outageRooms.length}`;
    expect(outageRooms.length).toBe(22);
    expect(late).toHaveLength(0);
  });
});
