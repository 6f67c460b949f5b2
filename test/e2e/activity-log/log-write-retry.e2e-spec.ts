import { randomUUID } from 'node:crypto';
import type { LogType } from '../../../src/activity-log/activity-log.entity';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { OUTCOME_UNKNOWN_MESSAGE } from '../../../src/activity-log/attempt-ledger';
import type { GroupCommitWriter } from '../../../src/activity-log/group-commit-writer';
import { WRITE_LOG_ENTRY } from '../../../src/activity-log/log-write-retry';
import type { InboundContextLookupJobData } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { InboundContextLookupProcessor } from '../../../src/lookup/jobs/inbound-context-lookup.job';
import { jobQueueToken, type JobQueue, type QueueJob } from '../../../src/queue/job-queue';
import type { MaintenanceJobData } from '../../../src/queue/maintenance-tasks';
import { createLookupSetup } from '../../faults/support/harness';
import { waitUntil } from '../../faults/support/services';
import { logsApi } from '../../api/logs-api';
import { appSuite } from '../../utils/create-test-app';
import { logEntryInput } from '../../utils/log-entry-input';

/**
 * An activity-log entry the database cannot take goes to the `maintenance` queue as the task
 * `write-log-entry`, retried until the database takes it: none lost, none twice, original
 * timestamp. Lookups, tool calls and end-call deliveries alike (every writer goes through
 * `ActivityLogService.record`).
 */
describe('activity log entries the database cannot take (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true });
  let inboundId: string;

  beforeAll(async () => {
    suite.server.respond('/kept', { body: { context: { name: 'Asha' } } });
    ({ inboundId } = await createLookupSetup(suite.ctx, suite.user, suite.server, '/kept'));
  });

  const service = () => suite.ctx.app.get(ActivityLogService);
  /** The log's writer: made to refuse entries, as a database that is down does. */
  const writer = () => (service() as unknown as { writer: GroupCommitWriter }).writer;

  /** Runs `during` while the database refuses every entry, and until `refusals` writes were refused. */
  async function refusing(refusals: number, during: () => Promise<void>): Promise<void> {
    const write = jest.spyOn(writer(), 'write').mockResolvedValue(null);
    try {
      await during();
      // Refused by the first write, then by at least one retry of the queue.
      await waitUntil('the retries refused', () => write.mock.calls.length >= refusals, 30_000, 20);
    } finally {
      write.mockRestore();
    }
  }

  const roomsLogged = async (prefix: string, logType?: LogType) => {
    const query = { limit: 100, ...(logType && { log_type: logType }) };
    const { logs } = await logsApi(suite.ctx, suite.user).page(query);
    return logs.map((log) => log.room_name).filter((room) => room.startsWith(prefix));
  };

  const loggedWithin = (prefix: string, n: number) =>
    waitUntil(
      `${n} entries of ${prefix}`,
      async () => (await roomsLogged(prefix)).length >= n,
      60_000,
      100,
    );

  it('keeps lookup entries the database refuses and writes each exactly once when it takes them', async () => {
    const prefix = `kept-${randomUUID()}-`;
    const rooms = Array.from({ length: 5 }, (_, i) => `${prefix}${i}`);
    const before = Date.now();
    await refusing(10, async () => {
      for (const room of rooms) {
        const result = await suite.ctx.app
          .get(InboundContextLookupService)
          .run({ room_name: room, inbound_id: inboundId });
        expect(result).toMatchObject({ status: 'success', log_id: null });
      }
    });
    await loggedWithin(prefix, rooms.length);
    expect((await roomsLogged(prefix)).sort()).toEqual(rooms);
    const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: rooms[0] });
    expect(logs).toHaveLength(1);
    // The time of the lookup, not of the late write.
    expect(new Date(logs[0].timestamp).getTime()).toBeGreaterThanOrEqual(before - 5);
  });

  it('gives tool-call and end-call entries the same retry', async () => {
    const prefix = `kept-other-${randomUUID()}-`;
    const entries = (['tool_call', 'end_call_webhook'] as const).map((log_type) =>
      logEntryInput(suite.user.userId, `${prefix}${log_type}`, { log_type }),
    );
    await refusing(4, async () => {
      for (const entry of entries) expect(await service().record(entry)).toBeNull();
    });
    await loggedWithin(prefix, 2);
    expect(await roomsLogged(prefix, 'tool_call')).toEqual([`${prefix}tool_call`]);
    expect(await roomsLogged(prefix, 'end_call_webhook')).toEqual([`${prefix}end_call_webhook`]);
  });

  it('writes an entry handed over twice once (the task skips an entry already in the log)', async () => {
    const room = `kept-twice-${randomUUID()}`;
    const entry = { ...logEntryInput(suite.user.userId, room), timestamp: new Date() };
    const data: MaintenanceJobData = {
      task: WRITE_LOG_ENTRY,
      entry: { ...entry, timestamp: entry.timestamp.toISOString() },
    };
    const maintenance = suite.ctx.app.get<JobQueue<MaintenanceJobData>>(
      jobQueueToken(QUEUES.MAINTENANCE),
    );
    // Two jobs of one entry (a job whose completion was lost, run again).
    for (const jobId of [randomUUID(), randomUUID()])
      await maintenance.request(data, { waitMs: 15_000, jobId });
    const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: room });
    expect(logs).toHaveLength(1);
  });

  it('a journaled lookup entry keeps its attempt_key in the queue: written once, and a redelivery adds no lost entry', async () => {
    const prefix = `kept-key-${randomUUID()}-`;
    const processor = suite.ctx.app.get(InboundContextLookupProcessor, { strict: false });
    const jobs: QueueJob<InboundContextLookupJobData>[] = [0, 1, 2].map((i) => ({
      id: `kept-key-${randomUUID()}`,
      data: { room_name: `${prefix}${i}`, inbound_id: inboundId },
      timestamp: Date.now(),
      attemptsMade: 0,
      opts: {},
      discard: () => undefined,
    }));
    await refusing(6, async () => {
      for (const job of jobs)
        expect(await processor.handle(job)).toMatchObject({ status: 'success', log_id: null });
    });
    await loggedWithin(prefix, jobs.length);
    expect((await roomsLogged(prefix)).sort()).toEqual(jobs.map((job) => job.data.room_name));

    // The kept attempt was never settled: a redelivery finds it, and its late "outcome unknown"
    // entry is the one already written (same attempt_key), so only the new request adds an entry.
    await processor.handle(jobs[0]);
    const { logs } = await logsApi(suite.ctx, suite.user).page({
      limit: 100,
      room_name: jobs[0].data.room_name,
    });
    expect(logs).toHaveLength(2);
    expect(logs.filter((log) => log.message === OUTCOME_UNKNOWN_MESSAGE)).toEqual([]);
  });
});
