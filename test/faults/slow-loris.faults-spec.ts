import { randomUUID } from 'node:crypto';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../src/contracts/inbound-context-lookup.contract';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, QUEUES } from '../../src/contracts/queues';
import type { ToolCallJobData, ToolCallResult } from '../../src/contracts/tool-call.contract';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { type CustomerServer, type CustomerResponse } from '../utils/customer-server';
import {
  allLogs,
  createAssistant,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  type Scenario,
} from './support/harness';

/** Headers at once, then one byte every 200 ms for 10 s: bytes keep coming, the answer never completes in time. */
const SLOW_LORIS: CustomerResponse = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  trickle: { chunk: ' ', intervalMs: 200, count: 50 },
  body: { context: { name: 'too late' } },
};
/** Accepts the request and sends nothing at all for 8 s. */
const SILENT: CustomerResponse = {
  status: 200,
  body: { context: { name: 'too late' } },
  delayMs: 8000,
};

/** The deadline is 1 s; the brief allows the answer to come within ~1.5 s including the queue round trip. */
const DEADLINE_MS = 1000;
const ANSWER_WITHIN_MS = 1500;

/**
 * Scenario 4: customer endpoints that accept the request and then answer byte by byte (slow
 * loris) or not at all. The per-request deadline (strategy `timeout_seconds`, tool `timeout`) is a
 * total deadline: the job must answer `status: "error"` when it passes, and write its log entry.
 */
describe('Fault: slow-loris customer webhooks', () => {
  let server: CustomerServer;
  let ctx: TestContext;
  let user: TestUser;
  let scenario: Scenario | undefined;
  let lookups: JobQueue<InboundContextLookupJobData, InboundContextLookupResult>;
  let toolCalls: JobQueue<ToolCallJobData, ToolCallResult>;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    scenario = await startScenario('all', {}, (customer) =>
      customer.respond('/loris', SLOW_LORIS).respond('/silent', SILENT),
    );
    ({ server, ctx, user } = scenario);
    lookups = ctx.app.get(jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
    toolCalls = ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL));
  }, 180_000);

  afterAll(() => endScenario('slow-loris', figures, scenario), 60_000);

  describe.each([
    ['slow loris (a byte every 200 ms)', '/loris'],
    ['silent (nothing for 8 s)', '/silent'],
  ])('inbound context lookup, %s', (label, path) => {
    it('answers status "error" (timeout) within ~1.5 s and logs it', async () => {
      const { inboundId } = await createLookupSetup(ctx, user, server, path, {
        timeout_seconds: 1,
      });
      const room = `room-${randomUUID()}`;
      const outcome = await timed(() =>
        lookups.request(
          { room_name: room, inbound_id: inboundId },
          { ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, waitMs: 10_000 },
        ),
      );
      figures[`lookup ${label}`] = {
        ms: outcome.ms,
        latency_ms: outcome.value?.latency_ms,
        error: outcome.value?.error,
      };
      expect(outcome.error).toBeUndefined();
      const result = outcome.value!;
      expect(result.status).toBe('error');
      expect(result.error).toBe(`timeout: no complete response within ${DEADLINE_MS} ms`);
      expect(result.prompt).toBe('Hello .');
      expect(result.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(result.latency_ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(outcome.ms).toBeLessThan(ANSWER_WITHIN_MS);

      const logs = await allLogs(ctx, user, {
        log_type: 'inbound_context_lookup',
        room_name: room,
      });
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        log_id: result.log_id,
        status: 'error',
        response_data: { error: 'timeout' },
      });
      expect(logs[0].latency_ms).toBeLessThan(ANSWER_WITHIN_MS);
    });
  });

  it('holds the deadline for 30 concurrent slow-loris lookups', async () => {
    const { inboundId } = await createLookupSetup(ctx, user, server, '/loris', {
      timeout_seconds: 1,
    });
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        lookups.request(
          { room_name: `room-${randomUUID()}`, inbound_id: inboundId },
          { ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, waitMs: 10_000 },
        ),
      ),
    );
    const wall = Date.now() - started;
    figures['30 concurrent slow-loris lookups'] = {
      wall_ms: wall,
      max_latency_ms: Math.max(...results.map((r) => r.latency_ms)),
    };
    expect(results.every((r) => r.status === 'error' && r.error?.startsWith('timeout:'))).toBe(
      true,
    );
    expect(Math.max(...results.map((r) => r.latency_ms))).toBeLessThan(ANSWER_WITHIN_MS);
    expect(wall).toBeLessThan(2500);
  });

  describe.each([
    ['slow loris (a byte every 200 ms)', '/loris'],
    ['silent (nothing for 8 s)', '/silent'],
  ])('tool webhook, %s', (label, path) => {
    it('answers status "error" within ~1.5 s and logs it', async () => {
      const assistantId = await createAssistant(ctx, user);
      const tool = await ctx
        .http()
        .post('/tool/create')
        .set(user.auth)
        .send({
          tool_name: `slow_${path.slice(1)}`,
          tool_description: 'A tool whose endpoint is slow',
          tool_parameters: [{ name: 'order_id', type: 'string', description: 'Order number' }],
          tool_execution_type: 'webhook',
          tool_execution_config: { url: server.url(path), timeout: 1 },
        })
        .expect(200);
      const toolId = tool.body.data.tool_id as string;
      await ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(user.auth)
        .send({ tool_ids: [toolId] })
        .expect(200);
      const room = `room-${randomUUID()}`;
      const outcome = await timed(() =>
        toolCalls.request(
          {
            tool_id: toolId,
            assistant_id: assistantId,
            room_name: room,
            arguments: { order_id: 'A-1' },
          },
          { waitMs: 10_000 },
        ),
      );
      figures[`tool ${label}`] = {
        ms: outcome.ms,
        latency_ms: outcome.value?.latency_ms,
        error: outcome.value?.error,
      };
      expect(outcome.error).toBeUndefined();
      expect(outcome.value).toMatchObject({ status: 'error', result: null });
      expect(outcome.value!.error).toBe(
        `Tool "slow_${path.slice(1)}" failed: its webhook did not answer within 1 s.`,
      );
      expect(outcome.value!.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(outcome.ms).toBeLessThan(ANSWER_WITHIN_MS);

      const logs = await allLogs(ctx, user, { log_type: 'tool_call', room_name: room });
      expect(logs).toHaveLength(1);
      expect(logs[0].status).toBe('error');
      expect(logs[0].latency_ms).toBeLessThan(ANSWER_WITHIN_MS);
    });
  });
});
