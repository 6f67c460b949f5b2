import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { EntrySpool } from '../../../src/inbound-context/outage/entry-spool';
import { InboundContextLookupService } from '../../../src/inbound-context/inbound-context-lookup.service';
import { LookupLogWriter } from '../../../src/inbound-context/outage/lookup-log-writer';
import { createLookupSetup } from '../../faults/support/harness';
import { logsApi } from '../../api/logs-api';
import { appSuite } from '../../utils/create-test-app';

const databaseUrl = process.env.DATABASE_URL;
const redis = Boolean(process.env.REDIS_URL || process.env.REDIS_CLUSTER_NODES);

/**
 * `LOOKUP_LOG_WRITE=behind`: a lookup answers once its entry is kept in Redis under an id reserved
 * in MySQL, and the drain commits it under that id. Shown with the log's table locked: the lookup
 * answers, and its entry appears under the id it answered with once the table is free.
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

  it('writes each entry once though a drainer dies between the insert and trimming the spool', async () => {
    const writer = suite.ctx.app.get(LookupLogWriter);
    const spool = suite.ctx.app.get(EntrySpool);
    const drop = jest.spyOn(spool, 'drop').mockRejectedValueOnce(new Error('killed'));
    const rooms = Array.from({ length: 5 }, () => `behind-${randomUUID()}`);
    try {
      const results = await Promise.all(rooms.map((room) => lookup(room)));
      await writer.drain();
      await writer.drain();
      expect(drop).toHaveBeenCalled();
      for (const [i, room] of rooms.entries()) {
        const logs = await entriesOf(room);
        expect(logs.map((log) => log.log_id)).toEqual([results[i].log_id]);
      }
    } finally {
      drop.mockRestore();
    }
    // Drained again: none is written twice.
    await writer.drain();
    for (const room of rooms) {
      const { logs } = await logsApi(suite.ctx, suite.user).page({ limit: 100, room_name: room });
      expect(logs).toHaveLength(1);
    }
  });

  it('counts the entries not yet committed in activity_log_pending_entries', async () => {
    const writer = suite.ctx.app.get(LookupLogWriter);
    const pending = async () => {
      const { text } = await suite.ctx
        .http()
        .get('/metrics')
        .set('Authorization', `Bearer ${process.env.ADMIN_API_KEY}`)
        .expect(200);
      return Number(/^activity_log_pending_entries (\d+)$/m.exec(text)?.[1]);
    };
    // Drains stop (the test drains by hand): the lookup's entry waits in the spool.
    await writer.onModuleDestroy();
    const room = `behind-${randomUUID()}`;
    const result = await lookup(room);
    expect(await pending()).toBe(1);
    await writer.drain();
    expect(await pending()).toBe(0);
    const [entry] = await entriesOf(room);
    expect(entry.log_id).toBe(result.log_id);
  });
});
