import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '../../src/client/inbound-context-lookup.client';
import type { InboundContextLookupResult } from '../../src/contracts/inbound-context-lookup.contract';
import { RoutingBuilder } from '../../src/inbound-context/routing/routing-builder';
import type { TestContext, TestUser } from '../utils/create-test-app';
import {
  allLogs,
  createLookupSetup,
  endScenario,
  startScenario,
  timed,
  WorkerProcess,
  type Backends,
  type Scenario,
} from './support/harness';
import type { PrivateMariaDb } from './support/services';
import { waitUntil } from './support/services';

const NUMBERS = 20;
const LOOKUPS = 200;
/** Lookups in flight at once, as a call stack sends them. */
const IN_FLIGHT = 20;

/**
 * Scenario 6: MySQL is stopped; a worker started during the outage answers every lookup of every
 * configured number from the routing table, and their log entries are written once MySQL is back:
 * none lost, none twice.
 */
describe('Fault: MySQL stopped, a fresh worker answers lookups', () => {
  let db: PrivateMariaDb;
  let ctx: TestContext;
  let user: TestUser;
  let backends: Backends;
  let scenario: Scenario | undefined;
  let worker: WorkerProcess | undefined;
  let behindWorker: WorkerProcess | undefined;
  const phones: string[] = [];
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    // The API as a pure producer: only the worker started during the outage runs lookups.
    scenario = await startScenario('api', {}, (customer) =>
      customer.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } }),
    );
    ({ db, ctx, user, backends } = scenario);
    for (let i = 0; i < NUMBERS; i++)
      phones.push((await createLookupSetup(ctx, user, scenario.server, '/ctx')).phone);
    await ctx.app.get(RoutingBuilder).settled();
  }, 240_000);

  afterAll(async () => {
    await worker?.dispose();
    await behindWorker?.dispose();
    await endScenario('mysql-outage-lookups', figures, scenario);
    worker?.removeLogs();
    behindWorker?.removeLogs();
  }, 60_000);

  /**
   * Waits until the entry of every room (named `prefix`…) is stored, then, after a second drain's
   * time, checks each is stored once, under the id its lookup answered with; ms until stored.
   */
  const expectStoredUnderIds = async (
    prefix: string,
    rooms: string[],
    results: InboundContextLookupResult[],
  ): Promise<number> => {
    const back = Date.now();
    const stored = async () =>
      new Map(
        (await allLogs(ctx, user, { log_type: 'inbound_context_lookup' }))
          .filter((log) => log.room_name.startsWith(prefix))
          .map((log) => [log.room_name, log.log_id]),
      );
    await waitUntil(
      'every entry stored',
      async () => (await stored()).size >= rooms.length,
      60_000,
      500,
    );
    const ms = Date.now() - back;
    await new Promise((resolve) => setTimeout(resolve, 2000)); // a second drain would show here
    const logged = await stored();
    expect(logged.size).toBe(rooms.length);
    rooms.forEach((room, i) => expect(logged.get(room)).toBe(results[i].log_id));
    return ms;
  };

  it('answers 200 lookups over 20 numbers from a worker started while MySQL is down', async () => {
    await db.stop();
    // The same key as the API that sealed the routing (the worker cannot check it against MySQL).
    worker = new WorkerProcess('worker-during-outage', backends, {
      SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
    });
    const boot = await timed(() => worker!.start());
    expect(boot.error).toBeUndefined();
    figures.worker_boot_ms = boot.ms;

    const client = ctx.app.get(InboundContextLookupClient);
    const results: InboundContextLookupResult[] = [];
    const rooms = Array.from({ length: LOOKUPS }, (_, i) => `outage-${i}-${randomUUID()}`);
    const started = Date.now();
    for (let i = 0; i < LOOKUPS; i += IN_FLIGHT) {
      const batch = Array.from({ length: IN_FLIGHT }, (_, j) =>
        client.lookup(
          {
            room_name: rooms[i + j],
            inbound_number: phones[(i + j) % NUMBERS],
            caller_number: '+919900011122',
          },
          { waitMs: 15_000 },
        ),
      );
      results.push(...(await Promise.all(batch)));
    }
    figures.lookups_ms = Date.now() - started;
    expect(results).toHaveLength(LOOKUPS);
    for (const result of results)
      expect(result).toMatchObject({ status: 'success', assistant_id: expect.any(String) });
    figures.answered = results.length;

    // Back: every entry is written once, by whichever process drains first.
    figures.mariadb_start_ms = await db.start();
    const back = Date.now();
    let logged: string[] = [];
    await waitUntil(
      'every lookup entry written',
      async () => {
        logged = (await allLogs(ctx, user, { log_type: 'inbound_context_lookup' }))
          .map((log) => log.room_name)
          .filter((room) => room.startsWith('outage-'));
        return logged.length >= LOOKUPS;
      },
      60_000,
      500,
    );
    figures.entries_written_after_ms = Date.now() - back;
    await new Promise((resolve) => setTimeout(resolve, 2000)); // a second drain would show here
    logged = (await allLogs(ctx, user, { log_type: 'inbound_context_lookup' }))
      .map((log) => log.room_name)
      .filter((room) => room.startsWith('outage-'));
    expect(logged.sort()).toEqual([...rooms].sort());
    figures.entries = logged.length;

    // The worker that started without MySQL uses it once it is back: its next entry is written at once.
    const after = await client.lookup(
      { room_name: `after-${randomUUID()}`, inbound_number: phones[0] },
      { waitMs: 15_000 },
    );
    expect(after).toMatchObject({ status: 'success', log_id: expect.any(String) });
  });

  it('with LOOKUP_LOG_WRITE=behind, answers with log ids during the outage, and each entry is stored under its id once MySQL is back', async () => {
    await worker?.dispose();
    behindWorker = new WorkerProcess('worker-behind', backends, {
      SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
      LOOKUP_LOG_WRITE: 'behind',
    });
    await behindWorker.start();
    const client = ctx.app.get(InboundContextLookupClient);
    const lookup = (room: string, i: number) =>
      client.lookup({ room_name: room, inbound_number: phones[i % NUMBERS] }, { waitMs: 15_000 });
    // Its first entry reserves the worker's block of ids, while MySQL answers.
    expect((await lookup(`behind-warm-${randomUUID()}`, 0)).log_id).toMatch(/^\d+$/);

    await db.stop();
    const rooms = Array.from({ length: LOOKUPS / 2 }, (_, i) => `behind-out-${i}-${randomUUID()}`);
    const results: InboundContextLookupResult[] = [];
    for (let i = 0; i < rooms.length; i += IN_FLIGHT)
      results.push(
        ...(await Promise.all(rooms.slice(i, i + IN_FLIGHT).map((room, j) => lookup(room, i + j)))),
      );
    for (const result of results)
      expect(result).toMatchObject({ status: 'success', log_id: expect.stringMatching(/^\d+$/) });
    expect(new Set(results.map((result) => result.log_id)).size).toBe(rooms.length);
    figures.behind_answered_with_ids = results.length;

    await db.start();
    figures.behind_entries_written_after_ms = await expectStoredUnderIds(
      'behind-out-',
      rooms,
      results,
    );
  });

  it('with LOOKUP_LOG_WRITE=behind, the entries a worker answered with before it was killed are stored under their ids by another process', async () => {
    const client = ctx.app.get(InboundContextLookupClient);
    const lookup = (room: string, i: number) =>
      client.lookup({ room_name: room, inbound_number: phones[i % NUMBERS] }, { waitMs: 15_000 });
    expect(behindWorker?.running).toBe(true);
    // Its block of ids is reserved (the case above): answers need no MySQL.
    await db.stop();
    const rooms = Array.from({ length: IN_FLIGHT }, (_, i) => `killed-${i}-${randomUUID()}`);
    const results = await Promise.all(rooms.map((room, i) => lookup(room, i)));
    for (const result of results)
      expect(result).toMatchObject({ status: 'success', log_id: expect.stringMatching(/^\d+$/) });
    // Killed before MySQL is back: it never commits these entries itself.
    await behindWorker!.kill();
    await db.start();
    figures.killed_entries_written_after_ms = await expectStoredUnderIds('killed-', rooms, results);
  });
});
