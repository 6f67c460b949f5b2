import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { InboundContextLookupResult } from '../../src/contracts/inbound-context-lookup.contract';
import { QUEUES, type QueueName } from '../../src/contracts/queues';
import type { ToolCallResult } from '../../src/contracts/tool-call.contract';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import { toolApi } from '../api/tool-api';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { CustomerServer } from '../utils/customer-server';
import {
  createAssistant,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  type Scenario,
} from './support/harness';

/** Tenant A's burst: tool calls to an endpoint that never answers, lookups on one that hangs. */
const FLOOD = 60;
/** One owner's tool calls at once in the process (`OWNER_MAX_IN_FLIGHT`, its default). */
const CAP = 20;

/**
 * Two tenants on one worker process (the API in-process, role `all`, Bull on the private Redis).
 * Tenant A floods 60 tool calls to an endpoint that never answers and 60 lookups of its own number
 * on a strategy that hangs; tenant B then makes one tool call and one lookup. Without a per-owner
 * cap, A's jobs take every worker slot and B waits for A's timeouts. With it, at most `CAP` of A's
 * tool calls run; A's lookups are not held back (capped only by the lookup queue's concurrency,
 * 200) and all 60 reach A's endpoint. B's are taken and answered while every
 * one of A's is still pending, and B's lookup calls B's webhook. Asserted by order (A has nothing
 * completed when B is answered), not by time; B's latencies are reported.
 */
describe('Fault: one tenant floods slow endpoints while another makes calls', () => {
  let scenario: Scenario | undefined;
  let ctx: TestContext;
  let server: CustomerServer;
  let tenantA: TestUser;
  let tenantB: TestUser;
  /** Tenant A's endpoints: they never answer (closed at the end so A's jobs end quickly). */
  let hanging: CustomerServer;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    scenario = await startScenario('all', {}, (customer) =>
      customer
        .respond('/b-tool', { status: 200, body: { done: true } })
        .respond('/b-context', { status: 200, body: { context: { name: 'Bea' } } }),
    );
    ({ ctx, server, user: tenantA } = scenario);
    tenantB = await ctx.newUser();
    hanging = await CustomerServer.start();
    hanging.respondByDefault({ status: 200, body: {}, delayMs: 600_000 });
  }, 180_000);

  afterAll(async () => {
    await hanging?.close(); // A's requests fail now: its jobs finish before the queues close
    await endScenario('slow-tenant', figures, scenario);
  }, 120_000);

  const queue = <D, R>(name: QueueName) => ctx.app.get<JobQueue<D, R>>(jobQueueToken(name));
  const completed = async (name: QueueName) =>
    (await ctx.app.get<Queue>(getQueueToken(name)).getJobCounts()).completed;

  async function webhookTool(user: TestUser, url: string, timeout: number) {
    const assistantId = await createAssistant(ctx, user);
    const { tool_id } = await toolApi(ctx, user).create({
      tool_name: `tool_${randomUUID().slice(0, 8)}`,
      tool_description: 'A tool',
      tool_parameters: [],
      tool_execution_type: 'webhook',
      tool_execution_config: { url, timeout },
    });
    await toolApi(ctx, user).attach(assistantId, [tool_id]);
    return { assistant_id: assistantId, tool_id };
  }

  it("answers tenant B's tool call and lookup while all of tenant A's flood is pending", async () => {
    const aTool = await webhookTool(tenantA, hanging.url('/a-tool'), 60);
    const { inboundId: aNumber } = await createLookupSetup(ctx, tenantA, hanging, '/a-context', {
      timeout_seconds: 10,
    });
    const bTool = await webhookTool(tenantB, server.url('/b-tool'), 5);
    const { inboundId: bNumber } = await createLookupSetup(ctx, tenantB, server, '/b-context', {
      timeout_seconds: 5,
    });
    const tools = queue<object, ToolCallResult>(QUEUES.TOOL_CALL);
    const lookups = queue<object, InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP);

    // B unloaded first: its reference latencies.
    const room = () => `room-${randomUUID()}`;
    const bCall = () =>
      tools.request({ ...bTool, room_name: room(), arguments: {} }, { waitMs: 30_000 });
    const bLookup = () =>
      lookups.request({ room_name: room(), inbound_id: bNumber }, { waitMs: 30_000 });
    figures.b_unloaded_ms = {
      tool_call: (await timed(bCall)).ms,
      lookup: (await timed(bLookup)).ms,
    };

    await Promise.all(
      Array.from({ length: FLOOD }, () => [
        tools.add({ ...aTool, room_name: room(), arguments: {} }),
        lookups.add({ room_name: room(), inbound_id: aNumber, deadline_at: Date.now() + 600_000 }),
      ]).flat(),
    );
    // A's flood is running: its first jobs have reached its endpoints.
    await hanging.waitForRequests('/a-tool', CAP, 30_000);
    await hanging.waitForRequests('/a-context', FLOOD, 30_000);
    const before = {
      tool: await completed(QUEUES.TOOL_CALL),
      lookup: await completed(QUEUES.INBOUND_CONTEXT_LOOKUP),
    };

    const [call, lookup] = await Promise.all([timed(bCall), timed(bLookup)]);
    figures.b_loaded_ms = { tool_call: call.ms, lookup: lookup.ms };
    expect(call.error).toBeUndefined();
    expect(lookup.error).toBeUndefined();
    expect(call.value).toMatchObject({ status: 'success' });
    expect(lookup.value).toMatchObject({ status: 'success', fallback_used: false });
    expect(server.requestsTo('/b-context').length).toBe(2); // unloaded + loaded: B's webhook was called

    // Ordering: when B was answered, none of A's jobs had completed (B's are the only new ones),
    // and A never had more than its cap of tool calls running against its endpoint, while every
    // one of its lookups ran at once.
    expect(await completed(QUEUES.TOOL_CALL)).toBe(before.tool + 1);
    expect(await completed(QUEUES.INBOUND_CONTEXT_LOOKUP)).toBe(before.lookup + 1);
    figures.a_requests_in_flight = {
      tool: hanging.requestsTo('/a-tool').length,
      lookup: hanging.requestsTo('/a-context').length,
    };
    expect(hanging.requestsTo('/a-tool')).toHaveLength(CAP);
    expect(hanging.requestsTo('/a-context')).toHaveLength(FLOOD);
  });
});
