import { randomUUID } from 'node:crypto';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../src/contracts/inbound-context-lookup.contract';
import {
  JobFailedError,
  JobWaitTimeoutError,
  jobQueueToken,
  type JobQueue,
} from '../../src/queue/job-queue';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, QUEUES } from '../../src/contracts/queues';
import { assistantBody } from '../fixtures/assistant';
import type { TestContext, TestUser } from '../utils/create-test-app';
import type { CustomerServer } from '../utils/customer-server';
import {
  createAssistant,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  type Scenario,
} from './support/harness';
import { type PrivateMariaDb, waitUntil } from './support/services';

/** The API's REQUEST_TIMEOUT_MS in this scenario: a request no database answers gets 503 after it. */
const REQUEST_TIMEOUT_MS = 3000;
/** A request during the outage must be answered within this, never hang. */
const ANSWER_WITHIN_MS = REQUEST_TIMEOUT_MS + 1000;

type Outage = 'clean stop (SIGTERM)' | 'crash (SIGKILL)';

/**
 * Scenario 3: the database goes away under a running API (role `all`), once cleanly and once by
 * a crash. Requests must fail cleanly (5xx envelope, no SQL, bounded time), /health must say
 * `error`, and the same process must serve again once MariaDB is back.
 */
describe('Fault: MySQL restarted while the API serves', () => {
  let db: PrivateMariaDb;
  let server: CustomerServer;
  let ctx: TestContext;
  let user: TestUser;
  let scenario: Scenario | undefined;
  let inboundId: string;
  let lookups: JobQueue<InboundContextLookupJobData, InboundContextLookupResult>;
  const figures: Record<string, Record<string, unknown>> = {};

  const lookup = (waitMs: number) =>
    lookups.request(
      { room_name: `room-${randomUUID()}`, inbound_id: inboundId },
      { ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, waitMs },
    );

  beforeAll(async () => {
    scenario = await startScenario(
      'all',
      { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
      (customer) => customer.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } }),
    );
    ({ db, server, ctx, user } = scenario);
    ({ inboundId } = await createLookupSetup(ctx, user, server, '/ctx', { timeout_seconds: 2 }));
    lookups = ctx.app.get(jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
  }, 180_000);

  afterAll(() => endScenario('mysql-restart', figures, scenario), 60_000);

  /**
   * A hung database host (SIGSTOP: sockets open, nothing answers). Measured, not only asserted:
   * how long a request waits before the API gives up.
   */
  describe('hung (SIGSTOP)', () => {
    const f: Record<string, unknown> = {};
    figures['hung (SIGSTOP)'] = f;

    afterAll(() => db.thaw());

    it('answers /health with 503 error within its 1.5 s ping timeout', async () => {
      await ctx.http().get('/assistant/list').set(user.auth).expect(200);
      db.freeze();
      const health = await timed(() => ctx.http().get('/health').timeout(15_000));
      f.health_ms = health.ms;
      expect(health.value?.status).toBe(503);
      expect(health.value!.body.data.status).toBe('error');
      expect(health.ms).toBeLessThan(2500);
    });

    it('answers API requests with a 5xx within the request timeout instead of waiting for the database', async () => {
      // The assistant list read just before is answered from its view cache: no write can land
      // while the database does not answer, so it is still current.
      await ctx.http().get('/assistant/list').set(user.auth).timeout(2000).expect(200);
      const r = await timed(() => ctx.http().get('/tool/list').set(user.auth).timeout(12_000));
      f.request_ms = r.ms;
      f.request_outcome =
        r.value?.status ?? (r.error instanceof Error ? r.error.message : String(r.error));
      expect(r.value?.status).toBeGreaterThanOrEqual(500);
      expect(r.ms).toBeLessThan(ANSWER_WITHIN_MS);
    });

    it('serves again once the database thaws', async () => {
      db.thaw();
      f.first_200_after_thaw_ms = await waitUntil(
        'GET /tool/list to answer 200',
        async () =>
          (await ctx.http().get('/tool/list').set(user.auth).timeout(5000)).status === 200,
        30_000,
        100,
      );
      await ctx.http().get('/health').expect(200);
    });
  });

  describe.each<Outage>(['clean stop (SIGTERM)', 'crash (SIGKILL)'])('%s', (outage) => {
    const f: Record<string, unknown> = {};
    figures[outage] = f;

    it('serves before the outage', async () => {
      await ctx.http().get('/health').expect(200);
      await ctx.http().get('/assistant/list').set(user.auth).expect(200);
      const result = await lookup(10_000);
      expect(result.status).toBe('success');
    });

    it('fails requests cleanly and quickly while the database is down', async () => {
      if (outage === 'crash (SIGKILL)') await db.kill();
      else await db.stop();

      const health = await timed(() => ctx.http().get('/health').timeout(15_000));
      f.health_ms = health.ms;
      expect(health.value?.status).toBe(503);
      expect(health.value!.body).toMatchObject({
        success: false,
        message: 'Database unavailable',
        data: {
          status: 'error',
          details: { database: { status: 'down' }, redis: { status: 'up' } },
        },
      });
      expect(health.ms).toBeLessThan(2500);

      // A cached read is still current (no write lands while the database is down): answered.
      const cached = await timed(() =>
        ctx.http().get('/assistant/list').set(user.auth).timeout(15_000),
      );
      f.cached_list_status = cached.value?.status;
      expect(cached.value?.status).toBe(200);
      expect(cached.ms).toBeLessThan(2500);

      const calls = [
        () =>
          ctx
            .http()
            .post('/assistant/create')
            .set(user.auth)
            .send(assistantBody({ assistant_name: 'During the outage' })),
        () => ctx.http().get(`/assistant/details/${randomUUID()}`).set(user.auth),
        () => ctx.http().get('/logs').set(user.auth),
        () => ctx.http().get('/tool/list').set(user.auth),
      ];
      // Each route once, then 30 concurrent requests.
      const results = await Promise.all(
        [...calls, ...Array.from({ length: 30 }, (_, i) => calls[i % calls.length])].map((call) =>
          timed(() => call().timeout(15_000)),
        ),
      );
      f.requests = results.length;
      f.statuses = [...new Set(results.map((r) => r.value?.status ?? String(r.error)))];
      f.max_answer_ms = Math.max(...results.map((r) => r.ms));
      for (const r of results) {
        expect(r.error).toBeUndefined();
        expect(r.value!.status).toBeGreaterThanOrEqual(500);
        expect(r.value!.body).toMatchObject({
          success: false,
          message: expect.any(String),
          data: { error_id: expect.any(String) },
        });
        expect(JSON.stringify(r.value!.body)).not.toMatch(/ECONNREFUSED|SELECT|INSERT|sql|mysql/i);
      }
      expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(ANSWER_WITHIN_MS);

      // A producer gets an answer within its wait, not a hang: a failed job, or, when this
      // routing table (Redis) still answers for the number, the context itself
      // with no activity-log entry (log_id null: the entry could not be written).
      const pending = await timed(() => lookup(5000));
      f.lookup_during_outage = {
        ms: pending.ms,
        outcome:
          pending.error instanceof Error
            ? `${pending.error.name}: ${pending.error.message}`
            : `${pending.value?.status} (log_id ${pending.value?.log_id})`,
      };
      if (pending.error === undefined) {
        expect(pending.value).toMatchObject({ status: 'success', log_id: null });
      } else {
        expect(
          pending.error instanceof JobFailedError || pending.error instanceof JobWaitTimeoutError,
        ).toBe(true);
      }
      expect(pending.ms).toBeLessThan(5750);
    });

    it('serves again once the database is back, without restarting the API', async () => {
      const startedAt = Date.now();
      f.mariadb_start_ms = await db.start();
      f.first_200_after_start_ms = await waitUntil(
        'GET /tool/list to answer 200',
        async () =>
          (await ctx.http().get('/tool/list').set(user.auth).timeout(5000)).status === 200,
        30_000,
        100,
      );
      f.recovered_since_start_ms = Date.now() - startedAt;
      expect(f.first_200_after_start_ms).toBeLessThan(5000);

      // Every request from now on succeeds: no broken pooled connection is handed out.
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 3 === 0
            ? ctx
                .http()
                .post('/assistant/create')
                .set(user.auth)
                .send(assistantBody({ assistant_name: `After ${i}` }))
            : ctx.http().get('/assistant/list').set(user.auth),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 200));
      await ctx.http().get('/health').expect(200);
      const after = await lookup(10_000);
      expect(after.status).toBe('success');
      expect(after.log_id).toEqual(expect.any(String));
      await createAssistant(ctx, user);
    });
  });
});
