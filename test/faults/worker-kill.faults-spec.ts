import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { LogEntryDto } from '../../src/activity-log/dto/log-entry.dto';
import type { EndCallJobData } from '../../src/contracts/end-call-webhook.contract';
import type { InboundContextLookupJobData } from '../../src/contracts/inbound-context-lookup.contract';
import type { ToolCallJobData } from '../../src/contracts/tool-call.contract';
import { JobWaitTimeoutError, jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import { QUEUES } from '../../src/contracts/queues';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { toolApi } from '../api/tool-api';
import type { CustomerServer, RecordedRequest } from '../utils/customer-server';
import {
  allLogs,
  createAssistant,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  WorkerProcess,
  type Backends,
  type Scenario,
} from './support/harness';
import { type PrivateRedis, sleep, waitUntil } from './support/services';

const DELIVERIES = 100;
/** The customer answers each end-call delivery this slowly, so a kill always finds jobs in flight. */
const RECEIVER_DELAY_MS = 1000;
/** Kill the worker once this many deliveries have reached the customer. */
const KILL_AFTER = 30;
const LATE_LOOKUPS = 10;
/** The strategy answers each lookup of the burst this slowly: the kill finds lookups in flight. */
const LOOKUP_DELAY_MS = 3000;
/** What the log must say of an attempt whose answer no worker saw. */
const OUTCOME_UNKNOWN = 'outcome unknown: the worker stopped';

/**
 * Requests the receiver saw and entries the log holds, matched by `webhook-id` (the same on every
 * attempt of one delivery or tool call): per id, as many entries as requests. An entry beyond the
 * requests can only be an "outcome unknown" one (an attempt journaled, its worker killed before
 * the request left), and is counted.
 */
function matchEntries(requests: RecordedRequest[], entries: LogEntryDto[]) {
  const count = (ids: string[]) => {
    const byId = new Map<string, number>();
    for (const id of ids) byId.set(id, (byId.get(id) ?? 0) + 1);
    return byId;
  };
  const sent = count(requests.map((r) => String(r.headers['webhook-id'])));
  const logged = count(entries.map((e) => String(e.request_data.webhook_id)));
  const unknown = count(
    entries
      .filter((e) => e.message === OUTCOME_UNKNOWN)
      .map((e) => String(e.request_data.webhook_id)),
  );
  const problems: string[] = [];
  let journaledNotSent = 0;
  for (const id of new Set([...sent.keys(), ...logged.keys()])) {
    const [s, l, u] = [sent.get(id) ?? 0, logged.get(id) ?? 0, unknown.get(id) ?? 0];
    if (l < s) problems.push(`${id}: ${s} requests, ${l} entries`);
    else if (l - s > u) problems.push(`${id}: ${s} requests, ${l} entries (${u} outcome unknown)`);
    else journaledNotSent += l - s;
  }
  return {
    problems,
    journaledNotSent,
    outcomeUnknown: [...unknown.values()].reduce((a, b) => a + b, 0),
  };
}

/**
 * Scenario 2: the worker process (src/worker.ts, a real child process) is SIGKILLed in the middle
 * of a burst of end-call deliveries, and a new one is started. Bull must hand the interrupted jobs
 * to the new worker once their locks expire: every delivery arrives at least once (receivers dedupe
 * on `webhook-id`) and is logged. Then: lookups queued while no worker runs, whose producer gave
 * up, must be reported when a worker finally picks them up, not dropped.
 */
describe('Fault: worker process killed mid-load', () => {
  let redis: PrivateRedis;
  let server: CustomerServer;
  let ctx: TestContext;
  let user: TestUser;
  let backends: Backends;
  let scenario: Scenario | undefined;
  let assistantId: string;
  let endCalls: JobQueue<EndCallJobData, unknown>;
  let endCallBull: Queue;
  let toolCalls: JobQueue<ToolCallJobData, unknown>;
  let toolCallBull: Queue;
  let toolId: string;
  let lookups: JobQueue<InboundContextLookupJobData, unknown>;
  let lookupBull: Queue;
  let burstInboundId: string;
  const workers: WorkerProcess[] = [];
  const figures: Record<string, unknown> = {};

  const startWorker = async (label: string) => {
    // A short retry backoff: the delivery policy is the worker's (END_CALL_WEBHOOK_*), not the producer's.
    // The worker reads the secret store (signing secrets) with the API's key.
    const worker = new WorkerProcess(label, backends, {
      END_CALL_WEBHOOK_BACKOFF_MS: '200',
      SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY ?? '',
    });
    workers.push(worker);
    const bootMs = await worker.start();
    return { worker, bootMs };
  };

  beforeAll(async () => {
    // The API as a pure producer: it consumes nothing, so only the child workers run jobs.
    scenario = await startScenario('api', {}, (customer) =>
      customer
        .respond('/end-call', { status: 200, body: { received: true }, delayMs: RECEIVER_DELAY_MS })
        .respond('/tool', { status: 200, body: { done: true }, delayMs: RECEIVER_DELAY_MS })
        .respond('/lookup', { status: 200, body: { context: { n: 1 } }, delayMs: LOOKUP_DELAY_MS }),
    );
    ({ redis, server, backends, ctx, user } = scenario);
    assistantId = await createAssistant(ctx, user, {
      assistant_end_call_url: server.url('/end-call'),
    });
    endCalls = ctx.app.get(jobQueueToken(QUEUES.END_CALL_WEBHOOK));
    endCallBull = ctx.app.get(getQueueToken(QUEUES.END_CALL_WEBHOOK));
    toolCalls = ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL));
    toolCallBull = ctx.app.get(getQueueToken(QUEUES.TOOL_CALL));
    ({ tool_id: toolId } = await toolApi(ctx, user).create({
      tool_name: 'slow_tool',
      tool_description: 'Answers after a second',
      tool_parameters: [{ name: 'seq', type: 'number', description: 'Sequence number' }],
      tool_execution_type: 'webhook',
      tool_execution_config: { url: server.url('/tool') },
    }));
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    lookups = ctx.app.get(jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
    lookupBull = ctx.app.get(getQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
    ({ inboundId: burstInboundId } = await createLookupSetup(ctx, user, server, '/lookup', {
      timeout_seconds: 8,
    }));
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.dispose();
    await endScenario('worker-kill', figures, scenario);
    for (const worker of workers) worker.removeLogs();
  }, 60_000);

  it('delivers every end-call webhook, tool call and lookup request at least once across a SIGKILL of the worker, one entry per request', async () => {
    const first = await startWorker('worker-1');
    figures.worker_boot_ms = first.bootMs;

    const rooms = Array.from({ length: DELIVERIES }, (_, i) => `room-kill-${i}-${randomUUID()}`);
    await Promise.all(
      rooms.flatMap((room_name, seq) => [
        endCalls.add({
          assistant_id: assistantId,
          room_name,
          payload: { room_name, seq, event: 'call_ended' },
        }),
        // No tool_call_id: the webhook-id of a redelivered call comes from its job.
        toolCalls.add({
          tool_id: toolId,
          assistant_id: assistantId,
          room_name,
          arguments: { seq },
        }),
        // A deadline past the lock time: a redelivered lookup calls the strategy again.
        lookups.add({ room_name, inbound_id: burstInboundId, deadline_at: Date.now() + 120_000 }),
      ]),
    );

    await server.waitForRequests('/end-call', KILL_AFTER, 60_000);
    await first.worker.kill();
    const killedAt = Date.now();
    const receivedAtKill = server.requestsTo('/end-call').length;
    const counts = await endCallBull.getJobCounts();
    const toolCounts = await toolCallBull.getJobCounts();
    const lookupCounts = await lookupBull.getJobCounts();
    figures.at_kill = {
      lookups_received: server.requestsTo('/lookup').length,
      lookups: lookupCounts,
      received: receivedAtKill,
      ...counts,
      tool_calls_received: server.requestsTo('/tool').length,
      tool_calls: toolCounts,
    };
    expect(counts.active).toBeGreaterThan(0); // the kill really interrupted deliveries
    expect(toolCounts.active).toBeGreaterThan(0);
    expect(lookupCounts.active).toBeGreaterThan(0);

    const second = await startWorker('worker-2');
    figures.second_worker_boot_ms = second.bootMs;

    const idsOf = () =>
      new Set(server.requestsTo('/end-call').map((r) => String(r.headers['webhook-id'])));
    figures.all_delivered_after_second_worker_ms = await waitUntil(
      `${DELIVERIES} distinct webhook-ids`,
      () => idsOf().size >= DELIVERIES,
      150_000,
      250,
    );
    figures.all_completed_after_that_ms = await waitUntil(
      'every end-call and tool-call job to complete',
      async () =>
        (await endCallBull.getJobCounts()).completed === DELIVERIES &&
        (await toolCallBull.getJobCounts()).completed === DELIVERIES &&
        (await lookupBull.getJobCounts()).completed === DELIVERIES,
      60_000,
      250,
    );
    figures.recovery_total_ms = Date.now() - killedAt;
    await sleep(1500); // nothing else may arrive

    const requests = server.requestsTo('/end-call');
    const byId = new Map<string, string[]>();
    for (const r of requests) {
      const id = String(r.headers['webhook-id']);
      const room = (r.json as { room_name: string }).room_name;
      byId.set(id, [...(byId.get(id) ?? []), room]);
    }
    // Every room arrived, under exactly one webhook-id, and duplicates share the id.
    const roomsSeen = new Map<string, Set<string>>();
    for (const [id, rs] of byId)
      for (const room of rs) roomsSeen.set(room, new Set([...(roomsSeen.get(room) ?? []), id]));
    expect([...roomsSeen.keys()].sort()).toEqual([...rooms].sort());
    expect([...roomsSeen.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(byId.size).toBe(DELIVERIES);
    const duplicates = requests.length - DELIVERIES;
    figures.received = requests.length;
    figures.duplicated_deliveries = duplicates;
    expect(duplicates).toBeLessThanOrEqual(counts.active);

    const finalCounts = await endCallBull.getJobCounts();
    expect(finalCounts).toMatchObject({
      completed: DELIVERIES,
      failed: 0,
      active: 0,
      waiting: 0,
      delayed: 0,
    });

    // Every delivery has its success entry, carrying the webhook-id the receiver saw.
    const logs = await allLogs(ctx, user, { log_type: 'end_call_webhook' });
    const successIds = new Set(
      logs.filter((l) => l.status === 'success').map((l) => String(l.request_data.webhook_id)),
    );
    expect([...successIds].sort()).toEqual([...byId.keys()].sort());
    // Every request the receiver saw has exactly one entry, none twice: an attempt cut by the
    // kill after reaching the customer is recorded as "outcome unknown" by its redelivered job.
    const endCallMatch = matchEntries(requests, logs);
    figures.log_entries = logs.length;
    figures.outcome_unknown_entries = endCallMatch.outcomeUnknown;
    figures.journaled_not_sent = endCallMatch.journaledNotSent;
    expect(endCallMatch.problems).toEqual([]);
    expect(endCallMatch.journaledNotSent).toBeLessThanOrEqual(counts.active);

    // The tool calls of the same burst: each reached the receiver, under one webhook-id per call
    // (redelivered ones again), and each request has exactly one entry.
    const toolRequests = server.requestsTo('/tool');
    const toolIds = new Set(toolRequests.map((r) => String(r.headers['webhook-id'])));
    expect(toolIds.size).toBe(DELIVERIES);
    const toolLogs = await allLogs(ctx, user, { log_type: 'tool_call' });
    const toolMatch = matchEntries(toolRequests, toolLogs);
    figures.tool_calls = {
      received: toolRequests.length,
      duplicated: toolRequests.length - DELIVERIES,
      log_entries: toolLogs.length,
      outcome_unknown_entries: toolMatch.outcomeUnknown,
      journaled_not_sent: toolMatch.journaledNotSent,
    };
    expect(toolMatch.problems).toEqual([]);
    expect(toolMatch.journaledNotSent).toBeLessThanOrEqual(toolCounts.active);

    // The lookups of the burst: each strategy request has exactly one entry, a redelivered one
    // carrying the same webhook-id as the request its killed worker sent.
    const lookupRequests = server.requestsTo('/lookup');
    expect(new Set(lookupRequests.map((r) => String(r.headers['webhook-id']))).size).toBe(
      DELIVERIES,
    );
    const lookupLogs = await allLogs(ctx, user, { log_type: 'inbound_context_lookup' });
    const lookupMatch = matchEntries(lookupRequests, lookupLogs);
    figures.lookups = {
      received: lookupRequests.length,
      duplicated: lookupRequests.length - DELIVERIES,
      log_entries: lookupLogs.length,
      outcome_unknown_entries: lookupMatch.outcomeUnknown,
      journaled_not_sent: lookupMatch.journaledNotSent,
    };
    expect(lookupMatch.problems).toEqual([]);
    expect(lookupMatch.journaledNotSent).toBeLessThanOrEqual(lookupCounts.active);

    await second.worker.stop();
  });

  describe('lookups whose producer deadline passed before a worker picked them up', () => {
    let client: InboundContextLookupClient;
    const lateRooms: string[] = [];

    beforeAll(async () => {
      for (const worker of workers) await worker.stop();
      server.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } });
      const { inboundId } = await createLookupSetup(ctx, user, server, '/ctx', {
        timeout_seconds: 2,
      });
      client = InboundContextLookupClient.fromRedisUrl(redis.url, { prefix: backends.queuePrefix });
      // No worker runs: every producer gives up after its wait.
      const outcomes = await Promise.all(
        Array.from({ length: LATE_LOOKUPS }, () => {
          const room = `room-late-${randomUUID()}`;
          lateRooms.push(room);
          return timed(() =>
            client.lookup({ room_name: room, inbound_id: inboundId }, { waitMs: 1000 }),
          );
        }),
      );
      figures.late_lookup_producer_errors = outcomes.map((o) =>
        o.error instanceof Error ? o.error.name : 'none',
      );
      expect(outcomes.every((o) => o.error instanceof JobWaitTimeoutError)).toBe(true);
      await sleep(3000);
      const { bootMs } = await (async () => startWorker('worker-3'))();
      figures.third_worker_boot_ms = bootMs;
      await waitUntil(
        'the late lookups to finish',
        async () => {
          const lookups = ctx.app.get<Queue>(getQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
          const counts = await lookups.getJobCounts();
          return counts.waiting === 0 && counts.active === 0;
        },
        30_000,
        200,
      );
    }, 120_000);

    afterAll(async () => {
      await client?.close().catch(() => undefined);
    });

    it('are not silently dropped: each completes with exactly one activity-log entry', async () => {
      const lookups = ctx.app.get<Queue>(getQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP));
      const counts = await lookups.getJobCounts();
      expect(counts).toMatchObject({ completed: DELIVERIES + LATE_LOOKUPS, failed: 0 });
      const logs = await allLogs(ctx, user, { log_type: 'inbound_context_lookup' });
      const late = logs.filter((l) => lateRooms.includes(l.room_name));
      expect(late.map((l) => l.room_name).sort()).toEqual([...lateRooms].sort());
      figures.late_lookup_log_statuses = late.map((l) => l.status);
      figures.late_lookup_webhook_calls = server
        .requestsTo('/ctx')
        .filter((r) => lateRooms.includes((r.json as { room_name: string }).room_name)).length;
    });

    it('are reported as expired (status error) and the customer webhook is not called late', async () => {
      const logs = await allLogs(ctx, user, { log_type: 'inbound_context_lookup' });
      const late = logs.filter((l) => lateRooms.includes(l.room_name));
      expect(late).toHaveLength(LATE_LOOKUPS);
      expect(late.every((l) => l.status === 'error')).toBe(true);
      const calls = server
        .requestsTo('/ctx')
        .filter((r) => lateRooms.includes((r.json as { room_name: string }).room_name));
      expect(calls).toHaveLength(0);
    });
  });
});
