import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { LogEntryDto } from '../../src/activity-log/dto/log-entry.dto';
import { OUTCOME_UNKNOWN_MESSAGE } from '../../src/activity-log/attempt-ledger';
import { QUEUES } from '../../src/contracts/queues';
import type { ToolCallJobData, ToolCallResult } from '../../src/contracts/tool-call.contract';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import { toolCallWebhookId } from '../../src/tool/tool-call-request';
import { toolApi } from '../api/tool-api';
import { webhookToolBody } from '../fixtures/tool';
import type { RecordedRequest } from '../utils/customer-server';
import {
  allLogs,
  createAssistant,
  endScenario,
  startScenario,
  WorkerProcess,
  type Scenario,
} from './support/harness';
import { sleep, waitUntil } from './support/services';
import { unmatchedWebhookIds } from './support/webhook-ids';
import { holdsConnectionTo } from './support/sockets';

const PATH = '/book';
/** Duplicates added while the first is in flight; they spread over both workers. */
const DUPLICATES = 4;
/** The first request of each room is never answered: its worker is killed while it waits. */
const HANG_MS = 150_000;
/** What the entry of a call that sent after a first whose worker stopped says. */
const FIRST_UNKNOWN = 'an identical call was sent before and its outcome is unknown';

/** One job of a run: its data, what it answered, and how often Bull handed it over again. */
interface RunJob {
  data: ToolCallJobData;
  result: ToolCallResult;
  stalled: number;
}

interface Run {
  first: RunJob;
  duplicates: RunJob[];
  requests: RecordedRequest[];
  entries: LogEntryDto[];
}

/**
 * An `irreversible` tool call's worker is SIGKILLed while its request is in flight and identical
 * calls (same room and arguments, each its own `tool_call_id`, as a call stack re-issues them)
 * wait in another worker process. Within the first's claim lease (tool timeout + 15 s) the
 * redelivered first sends again under its own `webhook-id` and the duplicates get its result;
 * once the lease has ended without an answer, one duplicate sends and its entry says the first's
 * outcome is unknown. Either way every request the customer saw has its entry.
 */
describe('Fault: the worker of an irreversible tool call killed while its duplicates wait', () => {
  let scenario: Scenario | undefined;
  let assistantId: string;
  const workers: WorkerProcess[] = [];
  const figures: Record<string, unknown> = {};
  const seen = new Map<string, number>();

  beforeAll(async () => {
    scenario = await startScenario('api', {}, (customer) =>
      customer.respond(PATH, (request) => {
        const room = String(request.headers['x-call-room-name']);
        seen.set(room, (seen.get(room) ?? 0) + 1);
        return seen.get(room) === 1
          ? { status: 200, body: { late: true }, delayMs: HANG_MS }
          : { status: 200, body: { booked: room } };
      }),
    );
    assistantId = await createAssistant(scenario.ctx, scenario.user);
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.dispose();
    await endScenario('tool-single-flight-kill', figures, scenario);
    for (const worker of workers) worker.removeLogs();
  }, 60_000);

  const bull = () => scenario!.ctx.app.get<Queue>(getQueueToken(QUEUES.TOOL_CALL));
  const toolCalls = () =>
    scenario!.ctx.app.get<JobQueue<ToolCallJobData, ToolCallResult>>(
      jobQueueToken(QUEUES.TOOL_CALL),
    );
  const requestsIn = (room: string) =>
    scenario!.server.requestsTo(PATH).filter((r) => r.headers['x-call-room-name'] === room);

  async function bookingTool(timeoutSeconds: number): Promise<string> {
    const tools = toolApi(scenario!.ctx, scenario!.user);
    const { tool_id } = await tools.create(
      webhookToolBody(
        { url: scenario!.server.url(PATH), timeout: timeoutSeconds },
        {
          tool_name: `book_${randomUUID().slice(0, 8)}`,
          tool_parameters: [{ name: 'slot', type: 'string' }],
          side_effect: 'irreversible',
        },
      ),
    );
    await tools.attach(assistantId, [tool_id]);
    return tool_id;
  }

  /** Two workers; the one whose request to the customer is open is the first's. */
  async function startWorkers(label: string, lockMs: number): Promise<WorkerProcess[]> {
    const pair = [1, 2].map(
      (n) => new WorkerProcess(`${label}-${n}`, scenario!.backends, { QUEUE_LOCK_MS: `${lockMs}` }),
    );
    workers.push(...pair);
    for (const worker of pair) figures[`${worker.label}_boot_ms`] = await worker.start();
    return pair;
  }

  async function finished(ids: string[]): Promise<RunJob[]> {
    await waitUntil(
      'every job of the run to finish',
      async () =>
        (await Promise.all(ids.map((id) => bull().getJob(id)))).every((j) => j?.finishedOn),
      200_000,
      250,
    );
    return Promise.all(
      ids.map(async (id) => {
        const job = (await bull().getJob(id))!;
        const stalled = await bull().client.hget(bull().toKey(id), 'stalledCounter');
        const result = job.returnvalue as ToolCallResult;
        return { data: job.data as ToolCallJobData, result, stalled: Number(stalled ?? 0) };
      }),
    );
  }

  /**
   * Adds the first call, waits for its request, adds the duplicates (both workers take some), and
   * SIGKILLs the first's worker once every job runs; returns once all have finished.
   */
  async function killFirstWhileDuplicatesWait(
    label: string,
    { lockMs, timeoutSeconds }: { lockMs: number; timeoutSeconds: number },
  ): Promise<Run> {
    const toolId = await bookingTool(timeoutSeconds);
    const pair = await startWorkers(label, lockMs);
    const room = `room-${label}-${randomUUID()}`;
    const call = (): ToolCallJobData => ({
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: room,
      arguments: { slot: '2026-12-01T10:00' },
      tool_call_id: `call_${randomUUID()}`,
    });
    const firstId = await toolCalls().add(call());
    await waitUntil('the first request', () => requestsIn(room).length === 1, 60_000);
    const port = Number(new URL(scenario!.server.url()).port);
    const holder = pair.find((worker) => holdsConnectionTo(worker.pid!, port));
    if (!holder) throw new Error('no worker holds the first request open');
    const ids = [firstId];
    for (let n = 0; n < DUPLICATES; n++) ids.push(await toolCalls().add(call()));
    await waitUntil(
      'every duplicate to run',
      async () => (await bull().getActiveCount()) === ids.length,
      60_000,
    );
    await holder.kill();
    const started = Date.now();
    const [first, ...duplicates] = await finished(ids);
    figures[label] = { finished_after_kill_ms: Date.now() - started };
    await sleep(1000); // nothing else may arrive
    for (const worker of pair) await worker.dispose();
    const entries = await allLogs(scenario!.ctx, scenario!.user, {
      log_type: 'tool_call',
      room_name: room,
    });
    return { first, duplicates, requests: requestsIn(room), entries };
  }

  it('within the lease: only the first call is sent (again), every duplicate gets its result', async () => {
    // A short lock: the killed worker's jobs are handed over well within the 25 s lease.
    const run = await killFirstWhileDuplicatesWait('lease-holds', {
      lockMs: 3000,
      timeoutSeconds: 10,
    });
    const firstHook = toolCallWebhookId(run.first.data)!;
    // The cut request and the redelivered first's, under one webhook-id; no duplicate sent.
    expect(run.requests.map((r) => r.headers['webhook-id'])).toEqual([firstHook, firstHook]);
    expect(unmatchedWebhookIds(run.requests, run.entries, { onlySent: true })).toEqual([]);
    const firstEntries = run.entries.filter((e) => e.request_data.webhook_id === firstHook);
    expect(firstEntries.map((e) => e.message).sort()).toEqual(
      [OUTCOME_UNKNOWN_MESSAGE, expect.stringContaining('answered HTTP 200')].sort(),
    );
    const answered = firstEntries.find((e) => e.status === 'success')!;
    expect(run.first.result).toMatchObject({ status: 'success', deduplicated: false });
    for (const duplicate of run.duplicates)
      expect(duplicate.result).toMatchObject({
        status: 'success',
        result: run.first.result.result,
        deduplicated: true,
        first_log_id: answered.log_id,
      });
    // At least one duplicate waited in the other worker throughout (never handed over).
    expect(run.first.stalled).toBe(1);
    expect(run.duplicates.some((d) => d.stalled === 0)).toBe(true);
  });

  it('past the lease: one duplicate sends, its entry says the first outcome is unknown', async () => {
    // A lock longer than the 16 s lease: the first's job is handed over only after it ended.
    const run = await killFirstWhileDuplicatesWait('lease-ends', {
      lockMs: 30_000,
      timeoutSeconds: 1,
    });
    const firstHook = toolCallWebhookId(run.first.data)!;
    const hooks = run.requests.map((r) => String(r.headers['webhook-id']));
    expect(hooks).toHaveLength(2);
    expect(hooks[0]).toBe(firstHook);
    const sender = run.duplicates.find((d) => toolCallWebhookId(d.data) === hooks[1]);
    expect(sender).toBeDefined();
    // Every request has its entry: the cut one "outcome unknown", the duplicate's its answer.
    expect(unmatchedWebhookIds(run.requests, run.entries, { onlySent: true })).toEqual([]);
    const byHook = (hook: string) => run.entries.filter((e) => e.request_data.webhook_id === hook);
    expect(byHook(firstHook).map((e) => e.message)).toEqual([OUTCOME_UNKNOWN_MESSAGE]);
    const [sent] = byHook(hooks[1]);
    expect(sent).toMatchObject({
      status: 'success',
      message: expect.stringContaining(FIRST_UNKNOWN),
    });
    expect(sender!.result).toMatchObject({ status: 'success', deduplicated: false });
    // The others, the redelivered first among them, get the sender's result without a request.
    for (const other of [run.first, ...run.duplicates.filter((d) => d !== sender)])
      expect(other.result).toMatchObject({
        status: 'success',
        deduplicated: true,
        first_log_id: sent.log_id,
      });
    expect(run.first.stalled).toBe(1);
    expect(run.duplicates.some((d) => d.stalled === 0)).toBe(true);
  });
});
