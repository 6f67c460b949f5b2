import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { InboundContextLookupResult } from '../../src/contracts/inbound-context-lookup.contract';
import { RoutingBuilder } from '../../src/lookup/routing/routing-builder';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { inboundBody } from '../fixtures/inbound';
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
 * configured number from the routing table (a number's inbound policy enforced too: its caller rules
 * and its cap), and their log entries are written once MySQL is back: none lost, none twice.
 */
describe('Fault: MySQL stopped, a fresh worker answers lookups', () => {
  let db: PrivateMariaDb;
  let ctx: TestContext;
  let user: TestUser;
  let backends: Backends;
  let scenario: Scenario | undefined;
  let worker: WorkerProcess | undefined;
  let successor: WorkerProcess | undefined;
  const phones: string[] = [];
  /** A number whose inbound policy refuses Berlin callers and takes one call at a time. */
  let policyPhone: string;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    // The API as a pure producer: only the worker started during the outage runs lookups.
    scenario = await startScenario('api', {}, (customer) =>
      customer.respond('/ctx', { status: 200, body: { context: { name: 'Ada' } } }),
    );
    ({ db, ctx, user, backends } = scenario);
    for (let i = 0; i < NUMBERS; i++)
      phones.push((await createLookupSetup(ctx, user, scenario.server, '/ctx')).phone);
    const { assistantId } = await createLookupSetup(ctx, user, scenario.server, '/ctx');
    const policy = { callers: { deny: ['+4930*'] }, max_concurrent_calls: 1 };
    const assigned = await ctx
      .http()
      .post('/inbound/assign')
      .set(user.auth)
      .send(inboundBody(assistantId, { policy }))
      .expect(200);
    policyPhone = assigned.body.data.inbound_config.phone_number as string;
    await ctx.app.get(RoutingBuilder).settled();
  }, 240_000);

  afterAll(async () => {
    await worker?.dispose();
    await successor?.dispose();
    await endScenario('mysql-outage-lookups', figures, scenario);
    worker?.removeLogs();
    successor?.removeLogs();
  }, 60_000);

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

    // The number's policy is enforced from its routing entry: caller rules and its cap.
    const policyLookup = (caller: string) =>
      client.lookup(
        { room_name: `policy-${randomUUID()}`, inbound_number: policyPhone, caller_number: caller },
        { waitMs: 15_000 },
      );
    expect((await policyLookup('+4930123456')).policy?.outcome).toBe('denied');
    expect((await policyLookup('+4940123456')).policy?.outcome).toBe('open');
    expect((await policyLookup('+4940123457')).policy?.outcome).toBe('overflow');

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

  it('writes the entries a worker killed during the outage left in the queue, from another worker, once each', async () => {
    expect(worker?.running).toBe(true);
    const client = ctx.app.get(InboundContextLookupClient);
    await db.stop();
    const rooms = Array.from({ length: IN_FLIGHT }, (_, i) => `killed-${i}-${randomUUID()}`);
    const results = await Promise.all(
      rooms.map((room, i) =>
        client.lookup({ room_name: room, inbound_number: phones[i % NUMBERS] }, { waitMs: 15_000 }),
      ),
    );
    for (const result of results) expect(result).toMatchObject({ status: 'success', log_id: null });
    // Killed before MySQL is back: its entries wait in the maintenance queue, not in its memory.
    await worker!.kill();
    successor = new WorkerProcess('worker-after-kill', backends, {
      SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
    });
    await successor.start();
    await db.start();
    const back = Date.now();
    const logged = async () =>
      (await allLogs(ctx, user, { log_type: 'inbound_context_lookup' }))
        .map((log) => log.room_name)
        .filter((room) => room.startsWith('killed-'));
    await waitUntil(
      "the killed worker's entries",
      async () => (await logged()).length >= rooms.length,
      90_000,
      500,
    );
    figures.killed_entries_written_after_ms = Date.now() - back;
    await new Promise((resolve) => setTimeout(resolve, 2000)); // a second write would show here
    expect((await logged()).sort()).toEqual([...rooms].sort());
  });
});
