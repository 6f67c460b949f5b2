import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { MetricsServer } from '../../../src/metrics/metrics-server';
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { WorkerModule } from '../../../src/worker.module';
import { routeNumber } from '../../api/inbound-api';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite, createTestApp, type TestContext } from '../../utils/create-test-app';
import { onCluster, redisConfigured } from '../../utils/test-redis';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';

const ADMIN = process.env.ADMIN_API_KEY!;

/** The value of one sample line (`name{labels} value`) whose labels include all of `labels`. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  const suite = appSuite({ users: ['user'], server: true });

  beforeAll(() => {
    suite.server.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } });
    suite.server.respond('/down', { status: 503, body: { error: 'down' } });
  });

  const scrape = () => suite.ctx.http().get('/metrics').set('Authorization', `Bearer ${ADMIN}`);

  it('answers 401 without the operator key, or with a user key', async () => {
    const none = await suite.ctx.http().get('/metrics').expect(401);
    expect(none.body).toMatchObject({ success: false, message: 'Missing or invalid admin key' });
    await suite.ctx.http().get('/metrics').set(suite.user.auth).expect(401);
    await suite.ctx.http().get('/metrics').set('Authorization', 'Bearer not-the-key').expect(401);
  });

  it('exposes process, HTTP, queue, job, webhook and activity-log series after traffic and jobs', async () => {
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({
        assistant_name: 'Metered',
        assistant_description: 'd',
        assistant_prompt: 'Hi',
      }),
    );
    await suite.ctx
      .http()
      .get(`/assistant/details/${assistantId}`)
      .set(suite.user.auth)
      .expect(200);
    await suite.ctx
      .http()
      .get(`/assistant/details/${randomUUID()}`)
      .set(suite.user.auth)
      .expect(404);
    await suite.ctx.http().get('/assistant/list').expect(401);

    const { inboundId } = await routeNumber(
      suite.ctx,
      suite.user,
      assistantId,
      strategyBody(suite.server.url('/ctx'), {}, { strategy_name: 'Metered CRM' }),
    );
    const lookup = await suite.ctx.app
      .get(InboundContextLookupClient)
      .lookup({ room_name: `room-${randomUUID()}`, inbound_id: inboundId }, { waitMs: 15_000 });
    expect(lookup.status).toBe('success');
    const maintenance = suite.ctx.app.get<JobQueue>(jobQueueToken(QUEUES.MAINTENANCE));
    await maintenance.request({ task: 'purge-activity-logs' }, { waitMs: 15_000 });
    await expect(
      maintenance.request({ task: 'no-such-task' }, { waitMs: 15_000 }),
    ).rejects.toThrow();

    const res = await scrape().expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    const details = { method: 'GET', route: '/assistant/details/:assistant_id' };
    expect(sample(text, 'http_request_duration_seconds_count', { ...details, status: '200' })).toBe(
      1,
    );
    expect(sample(text, 'http_request_duration_seconds_count', { ...details, status: '404' })).toBe(
      1,
    );
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/assistant/list',
        status: '401',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/assistant/create',
        status: '200',
      }),
    ).toBe(1);
    // Raw URLs never become labels.
    expect(text).not.toContain(assistantId);
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(
        sample(text, `queue_${state}_jobs`, { queue: QUEUES.INBOUND_CONTEXT_LOOKUP }),
      ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'queue_failed_jobs', { queue: QUEUES.MAINTENANCE })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      sample(text, 'queue_job_duration_seconds_count', {
        queue: QUEUES.INBOUND_CONTEXT_LOOKUP,
        outcome: 'completed',
      }),
    ).toBe(1);
    expect(
      sample(text, 'queue_job_duration_seconds_count', {
        queue: QUEUES.MAINTENANCE,
        outcome: 'completed',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'queue_job_duration_seconds_count', {
        queue: QUEUES.MAINTENANCE,
        outcome: 'failed',
      }),
    ).toBe(1);
    expect(
      sample(text, 'webhook_requests_total', {
        kind: 'inbound_context_lookup',
        outcome: 'success',
        error_class: 'none',
      }),
    ).toBe(1);
    expect(
      sample(text, 'webhook_request_duration_seconds_count', { kind: 'inbound_context_lookup' }),
    ).toBe(1);
    expect(sample(text, 'activity_log_write_failures_total')).toBe(0);
    expect(text).not.toContain(ADMIN);
    expect(text).not.toContain(suite.user.apiKey);
  });

  it('counts a failed lookup by error class and times it; readiness without a /health call', async () => {
    const lookups = { kind: 'inbound_context_lookup' };
    const failed = { ...lookups, outcome: 'error', error_class: 'http_5xx' };
    const before = await scrape().expect(200);
    const failedBefore = sample(before.text, 'webhook_requests_total', failed) ?? 0;
    const timedBefore = sample(before.text, 'webhook_request_duration_seconds_count', lookups) ?? 0;

    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({
        assistant_name: 'Failing CRM',
        assistant_description: 'd',
        assistant_prompt: 'Hi',
      }),
    );
    const { inboundId } = await routeNumber(
      suite.ctx,
      suite.user,
      assistantId,
      strategyBody(suite.server.url('/down'), {}, { strategy_name: 'Down CRM' }),
    );
    const lookup = await suite.ctx.app
      .get(InboundContextLookupClient)
      .lookup({ room_name: `room-${randomUUID()}`, inbound_id: inboundId }, { waitMs: 15_000 });
    expect(lookup).toMatchObject({ status: 'error', error_class: 'http_5xx' });

    const text = (await scrape().expect(200)).text;
    expect(sample(text, 'webhook_requests_total', failed)).toBe(failedBefore + 1);
    expect(sample(text, 'webhook_request_duration_seconds_count', lookups)).toBe(timedBefore + 1);
    expect(
      sample(text, 'webhook_request_duration_seconds_bucket', { ...lookups, le: '+Inf' }),
    ).toBe(timedBefore + 1);
    expect(sample(text, 'webhook_request_duration_seconds_sum', lookups)).toBeGreaterThan(0);
    // Nothing in this file calls /health: the scrape checks readiness itself.
    expect(sample(text, 'health_ready')).toBe(1);
    expect(sample(text, 'health_dependency_up', { dependency: 'database' })).toBe(1);
    // Embedded mode uses no Redis: no series for it.
    expect(sample(text, 'health_dependency_up', { dependency: 'redis' })).toBe(
      redisConfigured ? 1 : undefined,
    );
    expect(text).not.toContain(suite.server.url('/down'));
  });

  it('is disabled (404) when no operator key is configured', async () => {
    const bare = await createTestApp({ env: { ADMIN_API_KEY: undefined } });
    try {
      await bare.http().get('/metrics').set('Authorization', `Bearer ${ADMIN}`).expect(404);
    } finally {
      await bare.close();
    }
  });
});

/** Redis configured but unreachable (a closed port): the shared Redis is never stopped. */
(redisConfigured ? describe : describe.skip)('GET /metrics with Redis unreachable', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({
      env: onCluster
        ? { REDIS_URL: undefined, REDIS_CLUSTER_NODES: '127.0.0.1:1' }
        : { REDIS_URL: 'redis://127.0.0.1:1' },
    });
  });
  afterAll(() => ctx.close());

  it('reports not ready and names Redis, as /health/ready would, without a call to it', async () => {
    const res = await ctx
      .http()
      .get('/metrics')
      .set('Authorization', `Bearer ${ADMIN}`)
      .expect(200);
    expect(sample(res.text, 'health_ready')).toBe(0);
    expect(sample(res.text, 'health_dependency_up', { dependency: 'redis' })).toBe(0);
    expect(sample(res.text, 'health_dependency_up', { dependency: 'database' })).toBe(1);
  });
});

(redisConfigured ? describe : describe.skip)('worker GET /metrics on METRICS_PORT', () => {
  let worker: INestApplicationContext;
  let port: number;

  beforeAll(async () => {
    const saved = process.env.METRICS_PORT;
    process.env.METRICS_PORT = '0';
    try {
      const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] }).compile();
      worker = moduleRef.createNestApplication({ logger: false });
      await (worker as unknown as { init(): Promise<unknown> }).init();
    } finally {
      if (saved === undefined) delete process.env.METRICS_PORT;
      else process.env.METRICS_PORT = saved;
    }
    port = worker.get(MetricsServer).port!;
  });
  afterAll(() => worker.close());

  it('answers 401 without the key and 200 with queue and process series with it', async () => {
    const base = `http://127.0.0.1:${port}`;
    await request(base).get('/metrics').expect(401);
    const res = await request(base)
      .get('/metrics')
      .set('Authorization', `Bearer ${ADMIN}`)
      .expect(200);
    expect(sample(res.text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(
      sample(res.text, 'queue_waiting_jobs', { queue: QUEUES.TOOL_CALL }),
    ).toBeGreaterThanOrEqual(0);
    expect(res.text).toContain('# TYPE webhook_request_duration_seconds histogram');
    // The worker has no health routes: no readiness series, rather than a misleading 0.
    expect(res.text).not.toContain('health_ready');
  });
});
