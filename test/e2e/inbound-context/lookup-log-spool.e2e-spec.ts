import { randomUUID } from 'node:crypto';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { OUTCOME_UNKNOWN_MESSAGE } from '../../../src/activity-log/attempt-ledger';
import type { InboundContextLookupJobData } from '../../../src/contracts/inbound-context-lookup.contract';
import { InboundContextLookupService } from '../../../src/inbound-context/inbound-context-lookup.service';
import { InboundContextLookupProcessor } from '../../../src/inbound-context/jobs/inbound-context-lookup.job';
import type { QueueJob } from '../../../src/queue/job-queue';
import { EntrySpool, spooled } from '../../../src/inbound-context/outage/entry-spool';
import { LookupLogWriter } from '../../../src/inbound-context/outage/lookup-log-writer';
import { createLookupSetup } from '../../faults/support/harness';
import { logsApi } from '../../api/logs-api';
import { appSuite } from '../../utils/create-test-app';
import { logEntryInput } from '../../utils/log-entry-input';

/**
 * A lookup whose log entry the database cannot take (down) keeps it in the spool; the drain
 * writes it once the database answers: none lost, none twice, original timestamp.
 */
describe('lookup log spool (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true });
  let inboundId: string;

  beforeAll(async () => {
    suite.server.respond('/spool', { body: { context: { name: 'Asha' } } });
    ({ inboundId } = await createLookupSetup(suite.ctx, suite.user, suite.server, '/spool'));
  });

  const roomsLogged = async (prefix: string) => {
    const { logs } = await logsApi(suite.ctx, suite.user).page({
      limit: 100,
      log_type: 'inbound_context_lookup',
    });
    return logs.map((log) => log.room_name).filter((room) => room.startsWith(prefix));
  };

  it('keeps entries the database refuses and writes each exactly once when it is back', async () => {
    const prefix = `spool-${randomUUID()}-`;
    // The test drains by hand: the periodic drain stops.
    await suite.ctx.app.get(LookupLogWriter).onModuleDestroy();
    const record = jest
      .spyOn(suite.ctx.app.get(ActivityLogService), 'record')
      .mockResolvedValue(null);
    const rooms = Array.from({ length: 5 }, (_, i) => `${prefix}${i}`);
    const before = Date.now();
    try {
      for (const room of rooms) {
        const result = await suite.ctx.app
          .get(InboundContextLookupService)
          .run({ room_name: room, inbound_id: inboundId });
        expect(result).toMatchObject({ status: 'success', log_id: null });
      }
      expect(await suite.ctx.app.get(LookupLogWriter).drain()).toBe(0); // still refused
    } finally {
      record.mockRestore();
    }
    expect(await suite.ctx.app.get(EntrySpool).size()).toBe(5);
    expect(await roomsLogged(prefix)).toEqual([]);

    // A drainer that dies after inserting, before trimming the spool: the next one skips those.
    const spool = suite.ctx.app.get(EntrySpool);
    const drop = jest.spyOn(spool, 'drop').mockRejectedValueOnce(new Error('killed'));
    await suite.ctx.app.get(LookupLogWriter).drain();
    drop.mockRestore();
    expect(await spool.size()).toBe(5);
    await suite.ctx.app.get(LookupLogWriter).drain();
    expect(await spool.size()).toBe(0);

    expect((await roomsLogged(prefix)).sort()).toEqual(rooms);
    const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: rooms[0] });
    expect(new Date(logs[0].timestamp).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(new Date(logs[0].timestamp).getTime()).toBeLessThan(Date.now() - 1);
  });

  it('a journaled lookup entry keeps its attempt_key in the spool: written once, and a redelivery adds no lost entry', async () => {
    const prefix = `spool-key-${randomUUID()}-`;
    await suite.ctx.app.get(LookupLogWriter).onModuleDestroy();
    const processor = suite.ctx.app.get(InboundContextLookupProcessor, { strict: false });
    const jobs: QueueJob<InboundContextLookupJobData>[] = [0, 1, 2].map((i) => ({
      id: `spool-key-${randomUUID()}`,
      data: { room_name: `${prefix}${i}`, inbound_id: inboundId },
      timestamp: Date.now(),
      attemptsMade: 0,
      opts: {},
      discard: () => undefined,
    }));
    const record = jest
      .spyOn(suite.ctx.app.get(ActivityLogService), 'record')
      .mockResolvedValue(null);
    try {
      for (const job of jobs)
        expect(await processor.handle(job)).toMatchObject({ status: 'success', log_id: null });
    } finally {
      record.mockRestore();
    }
    const spool = suite.ctx.app.get(EntrySpool);
    const kept = await spool.head(10);
    expect(kept).toHaveLength(3);
    expect(kept.every((item) => /^[\w-]{32}\.1$/.test(item.entry.attempt_key ?? ''))).toBe(true);

    // A drainer that dies after inserting, before trimming: the next one writes nothing again.
    const drop = jest.spyOn(spool, 'drop').mockRejectedValueOnce(new Error('killed'));
    await suite.ctx.app.get(LookupLogWriter).drain();
    drop.mockRestore();
    await suite.ctx.app.get(LookupLogWriter).drain();
    expect(await spool.size()).toBe(0);
    expect((await roomsLogged(prefix)).sort()).toEqual(jobs.map((job) => job.data.room_name));

    // The spooled attempt was never settled: a redelivery finds it, and its late "outcome unknown"
    // entry is the one already written (same attempt_key), so only the new request adds an entry.
    await processor.handle(jobs[0]);
    const { logs } = await logsApi(suite.ctx, suite.user).page({
      limit: 100,
      room_name: jobs[0].data.room_name,
    });
    expect(logs).toHaveLength(2);
    expect(logs.filter((log) => log.message === OUTCOME_UNKNOWN_MESSAGE)).toEqual([]);
  });

  it('a drainer whose head another one already removed removes nothing kept since', async () => {
    await suite.ctx.app.get(LookupLogWriter).onModuleDestroy();
    const spool = suite.ctx.app.get(EntrySpool);
    const item = (room: string) =>
      spooled({ ...logEntryInput(suite.user.userId, room), timestamp: new Date() });
    const rooms = [0, 1, 2].map((i) => `spool-race-${randomUUID()}-${i}`);
    for (const room of rooms) await spool.keep(item(room));
    // Two drainers read the same head (the first one's lock expired under it).
    const [a, b] = [await spool.head(3), await spool.head(3)];
    await spool.drop(3, a[0]);
    const later = item(`spool-race-later-${randomUUID()}`);
    await spool.keep(later);
    await spool.drop(3, b[0]);
    await spool.replaceHead({ ...b[0], attempts: 9 });
    const kept = await spool.head(10);
    expect(kept).toEqual([later]);
    await spool.drop(1, kept[0]);
    expect(await spool.size()).toBe(0);
  });
});
