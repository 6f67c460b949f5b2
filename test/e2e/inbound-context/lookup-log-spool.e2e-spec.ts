import { randomUUID } from 'node:crypto';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { InboundContextLookupService } from '../../../src/inbound-context/inbound-context-lookup.service';
import { EntrySpool } from '../../../src/inbound-context/outage/entry-spool';
import { LookupLogWriter } from '../../../src/inbound-context/outage/lookup-log-writer';
import { createLookupSetup } from '../../faults/support/harness';
import { logsApi } from '../../api/logs-api';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

/**
 * A lookup whose log entry the database cannot take (down) keeps it in the spool; the drain
 * writes it once the database answers: none lost, none twice, original timestamp.
 */
describe('lookup log spool (e2e)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let server: CustomerServer;
  let inboundId: string;

  beforeAll(async () => {
    server = await CustomerServer.start();
    server.respond('/spool', { body: { context: { name: 'Asha' } } });
    ctx = await createTestApp();
    user = await ctx.newUser();
    ({ inboundId } = await createLookupSetup(ctx, user, server, '/spool'));
  });
  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  const roomsLogged = async (prefix: string) => {
    const { logs } = await logsApi(ctx, user).page({
      limit: 100,
      log_type: 'inbound_context_lookup',
    });
    return logs.map((log) => log.room_name).filter((room) => room.startsWith(prefix));
  };

  it('keeps entries the database refuses and writes each exactly once when it is back', async () => {
    const prefix = `spool-${randomUUID()}-`;
    // The test drains by hand: the periodic drain stops.
    await ctx.app.get(LookupLogWriter).onModuleDestroy();
    const record = jest.spyOn(ctx.app.get(ActivityLogService), 'record').mockResolvedValue(null);
    const rooms = Array.from({ length: 5 }, (_, i) => `${prefix}${i}`);
    const before = Date.now();
    try {
      for (const room of rooms) {
        const result = await ctx.app
          .get(InboundContextLookupService)
          .run({ room_name: room, inbound_id: inboundId });
        expect(result).toMatchObject({ status: 'success', log_id: null });
      }
      expect(await ctx.app.get(LookupLogWriter).drain()).toBe(0); // still refused
    } finally {
      record.mockRestore();
    }
    expect(await ctx.app.get(EntrySpool).size()).toBe(5);
    expect(await roomsLogged(prefix)).toEqual([]);

    // A drainer that dies after inserting, before trimming the spool: the next one skips those.
    const spool = ctx.app.get(EntrySpool);
    const drop = jest.spyOn(spool, 'drop').mockRejectedValueOnce(new Error('killed'));
    await ctx.app.get(LookupLogWriter).drain();
    drop.mockRestore();
    expect(await spool.size()).toBe(5);
    await ctx.app.get(LookupLogWriter).drain();
    expect(await spool.size()).toBe(0);

    expect((await roomsLogged(prefix)).sort()).toEqual(rooms);
    const { logs } = await logsApi(ctx, user).page({ limit: 100, room_name: rooms[0] });
    expect(new Date(logs[0].timestamp).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(new Date(logs[0].timestamp).getTime()).toBeLessThan(Date.now() - 1);
  });
});
