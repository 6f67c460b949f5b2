import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { QUEUES, type QueueName } from '../../src/contracts/queues';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import { toolApi } from '../api/tool-api';
import type { TestContext, TestUser } from '../utils/create-test-app';
import type { CustomerServer } from '../utils/customer-server';
import {
  allLogs,
  createAssistant,
  createLookupSetup,
  endScenario,
  startScenario,
  WorkerProcess,
  type Backends,
  type Scenario,
} from './support/harness';
import { sleep, waitUntil } from './support/services';
import { unmatchedWebhookIds } from './support/webhook-ids';

/** Jobs of each kind (end-call, tool call, lookup) in flight at both kills. */
const JOBS = 5;
/** Long enough that no request of the first two runs is answered before its worker is killed. */
const HANG_MS = 60_000;
/** A short lock: a killed worker's jobs go back to the queue within seconds. */
const LOCK_MS = '3000';
const PATHS = { end: '/end-call', tool: '/tool', lookup: '/lookup' } as const;

/**
 * The worker is SIGKILLed twice while the same jobs run (each time after their requests reached
 * the customer), then a third worker runs them. Bull's default would fail every one of them after
 * the second stop ("job stalled more than allowable limit"); the service allows the re-runs (the
 * attempt journal records what each cut run sent), so every job completes and every request the
 * customer saw has exactly one entry.
 */
describe('Fault: the worker killed twice during the same jobs', () => {
  let server: CustomerServer;
  let ctx: TestContext;
  let user: TestUser;
  let backends: Backends;
  let scenario: Scenario | undefined;
  const workers: WorkerProcess[] = [];
  const figures: Record<string, unknown> = {};
  const hang = { status: 200, body: { late: true }, delayMs: HANG_MS };

  const startWorker = async (label: string) => {
    const worker = new WorkerProcess(label, backends, { QUEUE_LOCK_MS: LOCK_MS });
    workers.push(worker);
    figures[`${label}_boot_ms`] = await worker.start();
    return worker;
  };
  const bull = (name: QueueName) => ctx.app.get<Queue>(getQueueToken(name));

  beforeAll(async () => {
    scenario = await startScenario('api', {}, (customer) =>
      customer.respond(PATHS.end, hang).respond(PATHS.tool, hang).respond(PATHS.lookup, hang),
    );
    ({ server, backends, ctx, user } = scenario);
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.dispose();
    await endScenario('worker-double-kill', figures, scenario);
    for (const worker of workers) worker.removeLogs();
  }, 60_000);

  it('completes every job after two kills, with one entry per request sent', async () => {
    const assistantId = await createAssistant(ctx, user, {
      assistant_end_call_url: server.url(PATHS.end),
    });
    const { tool_id: toolId } = await toolApi(ctx, user).create({
      tool_name: 'hanging_tool',
      tool_description: 'Answers late',
      tool_parameters: [],
      tool_execution_type: 'webhook',
      tool_execution_config: { url: server.url(PATHS.tool), timeout: 30 },
    });
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    const { inboundId } = await createLookupSetup(ctx, user, server, PATHS.lookup, {
      timeout_seconds: 10,
    });
    const queue = <D>(name: QueueName) => ctx.app.get<JobQueue<D, unknown>>(jobQueueToken(name));
    await Promise.all(
      Array.from({ length: JOBS }, (_, seq) => {
        const room_name = `room-double-kill-${seq}-${randomUUID()}`;
        return [
          queue(QUEUES.END_CALL_WEBHOOK).add({
            assistant_id: assistantId,
            room_name,
            payload: { room_name, seq },
          }),
          queue(QUEUES.TOOL_CALL).add({
            tool_id: toolId,
            assistant_id: assistantId,
            room_name,
            arguments: {},
          }),
          queue(QUEUES.INBOUND_CONTEXT_LOOKUP).add({
            room_name,
            inbound_id: inboundId,
            deadline_at: Date.now() + 600_000,
          }),
        ];
      }).flat(),
    );

    // Two runs, each killed once every job's request has reached the customer.
    for (const [run, label] of [
      [1, 'worker-1'],
      [2, 'worker-2'],
    ] as const) {
      const worker = await startWorker(label);
      for (const path of Object.values(PATHS))
        await server.waitForRequests(path, JOBS * run, 60_000);
      await worker.kill();
    }
    figures.after_second_kill = await bull(QUEUES.TOOL_CALL).getJobCounts();

    server
      .respond(PATHS.end, { status: 200, body: { received: true } })
      .respond(PATHS.tool, { status: 200, body: { done: true } })
      .respond(PATHS.lookup, { status: 200, body: { context: { n: 1 } } });
    await startWorker('worker-3');
    const queues = [QUEUES.END_CALL_WEBHOOK, QUEUES.TOOL_CALL, QUEUES.INBOUND_CONTEXT_LOOKUP];
    figures.completed_after_third_worker_ms = await waitUntil(
      'every job to finish',
      async () => {
        const counts = await Promise.all(queues.map((name) => bull(name).getJobCounts()));
        return counts.every((c) => c.completed + c.failed === JOBS);
      },
      90_000,
      250,
    );
    await sleep(1000); // nothing else may arrive

    for (const name of queues) {
      const counts = await bull(name).getJobCounts();
      expect({ name, ...counts }).toMatchObject({ name, completed: JOBS, failed: 0 });
      const jobs = await bull(name).getCompleted();
      const statuses = jobs.map((j) => (j.returnvalue as { status: string }).status);
      expect({ name, statuses }).toEqual({
        name,
        statuses: Array(JOBS).fill(name === QUEUES.END_CALL_WEBHOOK ? 'delivered' : 'success'),
      });
    }
    const logTypes = {
      [PATHS.end]: 'end_call_webhook',
      [PATHS.tool]: 'tool_call',
      [PATHS.lookup]: 'inbound_context_lookup',
    };
    for (const [path, log_type] of Object.entries(logTypes)) {
      const requests = server.requestsTo(path);
      expect(requests).toHaveLength(3 * JOBS);
      const entries = await allLogs(ctx, user, { log_type });
      figures[log_type] = { requests: requests.length, entries: entries.length };
      expect(unmatchedWebhookIds(requests, entries)).toEqual([]);
    }
  });
});
