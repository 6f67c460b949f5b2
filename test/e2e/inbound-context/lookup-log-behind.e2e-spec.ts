import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { EntrySpool } from '../../../src/inbound-context/outage/entry-spool';
import { InboundContextLookupService } from '../../../src/inbound-context/inbound-context-lookup.service';
import { LookupLogWriter } from '../../../src/inbound-context/outage/lookup-log-writer';
import { createLookupSetup } from '../../faults/support/harness';
import { logsApi } from '../../api/logs-api';
import { appSuite } from '../../utils/create-test-app';

const databaseUrl = process.env.DATABASE_URL;
const redis = Boolean(process.env.REDIS_URL || process.env.REDIS_CLUSTER_NODES);

/**
 * `LOOKUP_LOG_WRITE=behind`: a lookup answers once its entry is held in Redis under an id reserved
 * in MySQL, and its process commits it under that id (a drain does, when its process could not).
 * Shown with the log's table locked: the lookup answers, and its entry appears under the id it
 * answered with once the table is free.
 */
(databaseUrl && redis ? describe : describe.skip)('lookup log written behind (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    server: true,
    app: { env: { LOOKUP_LOG_WRITE: 'behind' } },
  });
  let inboundId: string;

  beforeAll(async () => {
    suite.server.respond('/behind', { body: { context: { name: 'Asha' } } });
    ({ inboundId } = await createLookupSetup(suite.ctx, suite.user, suite.server, '/behind'));
  });

  const lookup = (room: string) =>
    suite.ctx.app.get(InboundContextLookupService).run({ room_name: room, inbound_id: inboundId });

  /** The caller's entries of `room`, once the drain has written `n` of them. */
  const entriesOf = async (room: string, n = 1) => {
    for (let tries = 0; ; tries++) {
      const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: room });
      if (logs.length >= n || tries > 100) return logs;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('answers with an id while the log table is locked, and the entry is stored under it once it is free', async () => {
    // The process's first block of ids is reserved by a first lookup.
    const first = await lookup(`behind-${randomUUID()}`);
    expect(first.log_id).toMatch(/^\d+$/);
    const locker = await createConnection(databaseUrl!);
    const room = `behind-${randomUUID()}`;
    let result: Awaited<ReturnType<typeof lookup>> | 'no answer';
    try {
      await locker.query('LOCK TABLES activity_logs WRITE');
      result = await Promise.race([
        lookup(room),
        new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 3000)),
      ]);
    } finally {
      await locker.query('UNLOCK TABLES');
      await locker.end();
    }
    expect(result).toMatchObject({ status: 'success', log_id: expect.stringMatching(/^\d+$/) });
    const [entry] = await entriesOf(room);
    expect(entry).toMatchObject({
      log_id: result === 'no answer' ? null : result.log_id,
      status: 'success',
    });
  });

  /** Stops the periodic drain (the tests drain by hand, with no grace). */
  const writerAlone = async () => {
    const writer = suite.ctx.app.get(LookupLogWriter);
    await writer.onModuleDestroy();
    return writer;
  };

  it('writes each entry once though its process stopped between the commit and letting go of it', async () => {
    const writer = await writerAlone();
    const spool = suite.ctx.app.get(EntrySpool);
    const release = jest.spyOn(spool, 'release').mockRejectedValue(new Error('killed'));
    const rooms = Array.from({ length: 5 }, () => `behind-${randomUUID()}`);
    try {
      const results = await Promise.all(rooms.map((room) => lookup(room)));
      for (const [i, room] of rooms.entries()) {
        const logs = await entriesOf(room);
        expect(logs.map((log) => log.log_id)).toEqual([results[i].log_id]);
      }
      await writer.onModuleDestroy();
      expect(release).toHaveBeenCalled();
    } finally {
      release.mockRestore();
    }
    // Still held, though committed: a drain finds each under its id and lets go of it.
    expect(await spool.pending()).toBe(5);
    expect(await writer.drain(0)).toBe(5);
    expect(await spool.pending()).toBe(0);
    for (const room of rooms) {
      const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: room });
      expect(logs).toHaveLength(1);
    }
  });

  it('writes the entries of a process that stopped before committing them under the ids it answered with', async () => {
    const writer = await writerAlone();
    const record = jest.spyOn(suite.ctx.app.get(ActivityLogService), 'record');
    // The answering process's own commits never happen.
    record.mockResolvedValue(null);
    const rooms = Array.from({ length: 5 }, () => `behind-${randomUUID()}`);
    let results: Awaited<ReturnType<typeof lookup>>[];
    try {
      results = await Promise.all(rooms.map((room) => lookup(room)));
      await writer.onModuleDestroy();
    } finally {
      record.mockRestore();
    }
    for (const room of rooms) expect(await entriesOf(room, 0)).toEqual([]);
    // Within the grace they are still their process's.
    expect(await writer.drain()).toBe(0);
    expect(await writer.drain(0)).toBe(5);
    for (const [i, room] of rooms.entries()) {
      const logs = await entriesOf(room);
      expect(logs.map((log) => log.log_id)).toEqual([results[i].log_id]);
    }
  });

  it('counts the entries not yet committed in activity_log_pending_entries', async () => {
    const writer = await writerAlone();
    const pending = async () => {
      const { text } = await suite.ctx
        .http()
        .get('/metrics')
        .set('Authorization', `Bearer ${process.env.ADMIN_API_KEY}`)
        .expect(200);
      return Number(/^activity_log_pending_entries (\d+)$/m.exec(text)?.[1]);
    };
    const record = jest
      .spyOn(suite.ctx.app.get(ActivityLogService), 'record')
      .mockResolvedValueOnce(null);
    const room = `behind-${randomUUID()}`;
    const result = await lookup(room);
    await writer.onModuleDestroy();
    record.mockRestore();
    expect(await pending()).toBe(1);
    await writer.drain(0);
    expect(await pending()).toBe(0);
    const [entry] = await entriesOf(room);
    expect(entry.log_id).toBe(result.log_id);
  });
});
