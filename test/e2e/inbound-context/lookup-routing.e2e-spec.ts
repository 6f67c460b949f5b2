import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { DataSource } from 'typeorm';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { LookupRepository } from '../../../src/inbound-context/lookup.repository';
import {
  ROUTING_REBUILD_INTERVAL_MS,
  ROUTING_REBUILD_JOB_ID,
  RoutingBuilder,
} from '../../../src/lookup/routing/routing-builder';
import type { QueueJob } from '../../../src/queue/job-queue';
import { MaintenanceTasks, type MaintenanceJobData } from '../../../src/queue/maintenance-tasks';
import type { RoutingEntry } from '../../../src/lookup/routing/routing-entry';
import { RedisRoutingStore } from '../../../src/lookup/routing/redis-routing-store';
import { sharedFailFastRedis } from '../../../src/common/redis/redis-connection';
import { RoutingStore, type RoutingBatch } from '../../../src/lookup/routing/routing-store';
import { SecretUseStamps } from '../../../src/secret/secret-use-stamps';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi, routeNumber } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { CustomerServer } from '../../utils/customer-server';
import { testRedis, testRedisConnection } from '../../utils/test-redis';
import { twoProcessesWithUser } from '../../utils/two-processes';

/**
 * Statements a lookup may make: writing its own activity-log entry (its counters, its transaction,
 * and now and then a block of ids from the log's sequence).
 */
const LOG_WRITE = /activity_log|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

/**
 * The SQL statements `dataSource` runs while `work` runs that `keep` keeps (by default every one
 * but the activity log's own writes).
 */
async function statementsDuring(
  dataSource: DataSource,
  work: () => Promise<void>,
  keep: (sql: string, parameters?: unknown[]) => boolean = (sql) => !LOG_WRITE.test(sql),
) {
  const seen: string[] = [];
  const spy = jest
    .spyOn(dataSource.logger, 'logQuery')
    .mockImplementation((sql: string, parameters?: unknown[]) => {
      if (keep(sql, parameters)) seen.push(sql);
    });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

/** Counts the full rebuild's pages that hold a mapping `holds` picks (spying on the page reads). */
function pagesHolding(
  lookups: LookupRepository,
  holds: (mapping: { user_id: string; assistant_id: string | null }) => boolean,
) {
  const read = lookups.resolvePage.bind(lookups);
  let count = 0;
  const spy = jest.spyOn(lookups, 'resolvePage').mockImplementation(async (...args) => {
    const page = await read(...args);
    if (page.some((found) => holds(found.mapping))) count += 1;
    return page;
  });
  return { count: () => count, restore: () => spy.mockRestore() };
}

/**
 * A lookup reads its routing from the routing table (Redis, or memory embedded), kept current by
 * every committed change: no database statement but its own log entry.
 */
describe('inbound lookup routing table (e2e)', () => {
  const two = twoProcessesWithUser();
  let server: CustomerServer;

  beforeAll(async () => {
    server = await CustomerServer.start();
  });
  afterAll(() => server.close());

  const lookup = (data: { inbound_id?: string; inbound_number?: string }) =>
    two.a.app.get(InboundContextLookupService).run({ room_name: `room-${randomUUID()}`, ...data });

  async function routed(path: string, secretName: string, secretValue: string) {
    await secretApi(two.a, two.user).create(secretName, secretValue);
    const { assistant_id: assistantId } = await assistantApi(two.a, two.user).create(
      assistantBody({ assistant_name: 'Routed', assistant_prompt: 'Hi {{context.name}}' }),
    );
    server.respond(path, { body: { context: { name: 'Asha' } } });
    const number = await routeNumber(
      two.a,
      two.user,
      assistantId,
      strategyBody(server.url(path), {
        headers: { Authorization: `Bearer {{secret.${secretName}}}`, 'X-Plain': 'plain-h2-header' },
      }),
    );
    return { assistantId, ...number };
  }

  it('answers lookups with no database statement but the log entry', async () => {
    const { phone, inboundId } = await routed('/zero', 'ZERO_TOKEN', 'zero-token-value');
    await two.a.app.get(ActivityLogService).onModuleDestroy();
    // Rebuilds run after each change (and once more after the owner got its signing secret).
    await two.a.app.get(RoutingBuilder).settled();
    // The secrets' stamps are written in batches off the lookups' path: held while counting.
    const stamps = two.a.app.get(SecretUseStamps);
    const flush = stamps.flush.bind(stamps);
    const held = jest.spyOn(stamps, 'flush').mockResolvedValue(undefined);
    const statements = await statementsDuring(two.a.dataSource, async () => {
      for (let i = 0; i < 10; i++) {
        const byNumber = await lookup({ inbound_number: phone });
        const byId = await lookup({ inbound_id: inboundId });
        for (const result of [byNumber, byId])
          expect(result).toMatchObject({ status: 'success', assistant_name: 'Routed' });
      }
      expect(await lookup({ inbound_number: '+15550000000' })).toMatchObject({ status: 'error' });
      await two.a.app.get(ActivityLogService).onModuleDestroy();
    }).finally(() => held.mockRestore());
    expect(statements).toEqual([]);
    expect(await statementsDuring(two.a.dataSource, flush)).toEqual([
      expect.stringMatching(/^UPDATE\W+secrets\W/),
    ]);
    const sent = server.requestsTo('/zero');
    expect(sent.at(-1)?.headers.authorization).toBe('Bearer zero-token-value');
  });

  it('a change through either process reaches the next lookup at once', async () => {
    const { assistantId, phone } = await routed('/change', 'CHANGE_TOKEN', 'before-rotation');
    expect(await lookup({ inbound_number: phone })).toMatchObject({ assistant_name: 'Routed' });
    await two.b
      .http()
      .patch(`/assistant/update/${assistantId}`)
      .set(two.user.auth)
      .send({ assistant_name: 'Renamed' })
      .expect(200);
    expect(await lookup({ inbound_number: phone })).toMatchObject({ assistant_name: 'Renamed' });
    await secretApi(two.b, two.user).rotate('CHANGE_TOKEN', 'after-rotation');
    await lookup({ inbound_number: phone });
    expect(server.requestsTo('/change').at(-1)?.headers.authorization).toBe(
      'Bearer after-rotation',
    );
  });

  it('a change writes what it changed: one entry for a mapping, one shared record otherwise', async () => {
    const { assistantId, inboundId, strategy } = await routed(
      '/owner',
      'OWNER_TOKEN',
      'owner-token',
    );
    // Another number of the same owner: no write below touches its entry.
    await inboundApi(two.a, two.user).assign(
      inboundBody(assistantId, { inbound_context_strategy_id: strategy.strategy_id }),
    );
    await two.a.app.get(RoutingBuilder).settled();
    const writes = jest.spyOn(two.a.app.get(RoutingStore), 'write');
    const written = () => {
      const batches = writes.mock.calls.map(([batch]: [RoutingBatch]) => ({
        entries: batch.entries.map((entry) => entry.i),
        records: [...batch.records.keys()].map((field) => field.slice(0, 2)).sort(),
      }));
      writes.mockClear();
      return batches;
    };
    try {
      const http = () => two.a.http();
      await http()
        .patch(`/assistant/update/${assistantId}`)
        .set(two.user.auth)
        .send({ assistant_name: 'Owner only' })
        .expect(200);
      expect(written()).toEqual([{ entries: [], records: ['a:', 'o:'] }]);
      await http()
        .patch(`/inbound/update/${inboundId}`)
        .set(two.user.auth)
        .send({ assistant_id: assistantId })
        .expect(200);
      expect(written()).toEqual([{ entries: [inboundId], records: ['a:', 'o:', 's:'] }]);
      await secretApi(two.a, two.user).rotate('OWNER_TOKEN', 'owner-token-2');
      expect(written()).toEqual([{ entries: [], records: ['o:', 's:'] }]);
    } finally {
      writes.mockRestore();
    }
  });

  it('keeps no secret in clear in the table', async () => {
    const { inboundId } = await routed('/sealed', 'SEALED_TOKEN', 'sealed-secret-value');
    const { entry, records } = await two.a.app.get(RoutingStore).read('id', inboundId);
    expect(entry).toEqual(expect.any(String));
    expect([...records.keys()].map((field) => field.slice(0, 2)).sort()).toEqual([
      'a:',
      'o:',
      's:',
    ]);
    const value = [entry, ...records.values()].join('\n');
    expect(value).not.toContain('sealed-secret-value');
    expect(value).not.toContain('SEALED_TOKEN');
    expect(value).not.toContain('plain-h2-header');
  });

  it('a change and its lookup never wait for a full rebuild under way', async () => {
    const builder = two.a.app.get(RoutingBuilder);
    await builder.settled();
    const lookups = two.a.app.get(LookupRepository);
    const resolvePage = lookups.resolvePage.bind(lookups);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(lookups, 'resolvePage').mockImplementation(async (...args) => {
      await held; // the full rebuild reads every mapping: held until released
      return resolvePage(...args);
    });
    try {
      let fullDone = false;
      const full = builder.rebuild().then(() => (fullDone = true));
      const { phone } = await routed('/beside-full', 'BESIDE_FULL', 'beside-full-token');
      expect(await lookup({ inbound_number: phone })).toMatchObject({ status: 'success' });
      expect(fullDone).toBe(false);
      release();
      await full;
      // The full rebuild read before the change was rebuilt: it leaves the newer routing in place.
      expect(await lookup({ inbound_number: phone })).toMatchObject({ status: 'success' });
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('a rebuild only reads: an owner left without a signing secret gets none from it, and its lookup still signs', async () => {
    const { inboundId } = await routed('/first-secret', 'FIRST_SECRET', 'first-secret-token');
    const builder = two.a.app.get(RoutingBuilder);
    await builder.settled();
    const dataSource = two.a.app.get(DataSource);
    // A change made outside the service: the owner has no signing secret any more.
    await dataSource.query('UPDATE users SET webhook_secret = NULL WHERE user_id = ?', [
      two.user.userId,
    ]);
    const writes = await statementsDuring(
      dataSource,
      () => builder.rebuild(),
      // (Secrets' use stamps, flushed in batches off the lookups' path, may land meanwhile.)
      (sql) => /^\s*(INSERT|UPDATE|DELETE)/i.test(sql) && !/last_used_at/.test(sql),
    );
    expect(writes).toEqual([]);
    expect(await lookup({ inbound_id: inboundId })).toMatchObject({ status: 'success' });
    expect(server.requestsTo('/first-secret').at(-1)?.headers['webhook-signature']).toEqual(
      expect.any(String),
    );
  });

  it("a full rebuild reads an owner's secrets once, however many of its numbers reference them", async () => {
    const names = ['ONCE_A', 'ONCE_B', 'ONCE_C'];
    const numbers = [];
    for (const name of names)
      numbers.push(await routed(`/once-${name}`, name, `${name.toLowerCase()}-value`));
    const builder = two.a.app.get(RoutingBuilder);
    await builder.settled();
    // Reads of this owner's secrets (the database may hold other suites' rows, so the owner's
    // numbers may fall in more than one page): one per page that has any of them.
    const pages = pagesHolding(
      two.a.app.get(LookupRepository),
      (m) => m.user_id === two.user.userId,
    );
    const reads = await statementsDuring(
      two.a.dataSource,
      () => builder.rebuild(),
      (sql, parameters) =>
        /\bFROM\W+secrets\W/i.test(sql) && !!parameters?.includes(two.user.userId),
    ).finally(() => pages.restore());
    expect(reads).toHaveLength(pages.count());
    expect(pages.count()).toBeLessThan(names.length + 1);
    for (const [i, name] of names.entries()) {
      await lookup({ inbound_id: numbers[i].inboundId });
      expect(server.requestsTo(`/once-${name}`).at(-1)?.headers.authorization).toBe(
        `Bearer ${name.toLowerCase()}-value`,
      );
    }
  });

  it("a full rebuild reads the versions of an assistant's splits once, however many numbers split it", async () => {
    const { assistant_id: assistantId } = await assistantApi(two.a, two.user).create(
      assistantBody({ assistant_name: 'Split' }),
    );
    for (let i = 0; i < 2; i++)
      await two.a
        .http()
        .post(`/assistant/publish/${assistantId}`)
        .set(two.user.auth)
        .send({})
        .expect(200);
    const inboundIds = [];
    for (const arms of [
      [1, 2],
      [2, null],
      [1, null],
    ]) {
      const assistant_variants = arms.map((assistant_version) => ({
        assistant_version,
        weight: 50,
      }));
      const mapping = await inboundApi(two.a, two.user).assign(
        inboundBody(assistantId, { assistant_variants }),
      );
      inboundIds.push(mapping.inbound_id);
    }
    const builder = two.a.app.get(RoutingBuilder);
    await builder.settled();
    // Reads of this assistant's versions (the database may hold other suites' rows): one per page
    // that has any of its split numbers.
    const pages = pagesHolding(
      two.a.app.get(LookupRepository),
      (m) => m.assistant_id === assistantId,
    );
    const reads = await statementsDuring(
      two.a.dataSource,
      () => builder.rebuild(),
      (sql, parameters) =>
        /\bFROM\W+assistant_versions\W/i.test(sql) && !!parameters?.includes(assistantId),
    ).finally(() => pages.restore());
    expect(reads).toHaveLength(pages.count());
    for (const inboundId of inboundIds)
      expect(await lookup({ inbound_id: inboundId })).toMatchObject({
        status: 'skipped',
        assistant_name: 'Split',
        variant: expect.any(Number),
      });
  });

  /** An entry as a test writes it straight to a store: an inactive mapping, service `c`. */
  const entryOf = (i: string, t: number, c: string, p = ''): RoutingEntry => ({
    t,
    i,
    u: 'routing-test-owner',
    c,
    p,
    ...(p ? {} : { x: 1 as const }),
  });
  const only = (...entries: RoutingEntry[]): RoutingBatch => ({ entries, records: new Map() });
  const serviceOf = async (store: RoutingStore, by: 'id' | 'number', key: string) => {
    const { entry } = await store.read(by, key);
    return entry ? (JSON.parse(entry) as RoutingEntry).c : null;
  };

  it('a full rebuild that read before a change never puts back what the change replaced', async () => {
    const store = two.a.app.get(RoutingStore);
    const id = `race-${randomUUID()}`;
    const slowFull = await store.ticket(); // a full rebuild starts reading...
    // ...and a change is written meanwhile, through the other process's store
    const change = two.b.app.get(RoutingStore);
    await change.write(only(entryOf(id, await change.ticket(), 'changed')));
    await store.write(only(entryOf(id, slowFull, 'stale')));
    expect(await serviceOf(store, 'id', id)).toBe('changed');
    await two.a.app.get(RoutingBuilder).rebuild(); // its sweep removes the made-up entry
    expect(await store.read('id', id)).toMatchObject({ entry: null, built: true });
  });

  (testRedis ? it : it.skip)(
    'a full rebuild keeps what it and later changes wrote, and sweeps only what no read since its start wrote',
    async () => {
      const prefix = `sweep-${randomUUID()}`;
      const store = new RedisRoutingStore(testRedis!, prefix);
      const redis = testRedisConnection();
      try {
        const first = await store.ticket();
        await store.write(
          only(...['o1', 'o2', 'o3', 'o4'].map((id) => entryOf(id, first, 'v1', `1${id}`))),
        );
        const slowFull = await store.ticket(); // a full rebuild starts reading...
        await store.write(only(entryOf('o4', await store.ticket(), 'changed', '1o4'))); // ...o4 changes
        // It read o1, o2 and o4 (o3 is gone since), page by page.
        await store.write(
          only(entryOf('o1', slowFull, 'v2', '1o1'), entryOf('o2', slowFull, 'v2', '1o2')),
        );
        await store.write(only(entryOf('o4', slowFull, 'v2', '1o4')));
        await store.sweep(slowFull);
        expect(await serviceOf(store, 'number', '1o1')).toBe('v2');
        expect(await serviceOf(store, 'id', 'o2')).toBe('v2');
        expect(await store.read('id', 'o3')).toMatchObject({ entry: null, built: true });
        expect(await store.read('number', '1o3')).toMatchObject({ entry: null, built: true });
        expect(await serviceOf(store, 'number', '1o4')).toBe('changed');
      } finally {
        await redis.del(`${prefix}:routing`);
        redis.disconnect();
        store.onModuleDestroy();
      }
    },
  );

  (testRedis ? it : it.skip)(
    "the table's one script goes by its SHA: a read sends its text at most once per connection, and again once Redis forgot it",
    async () => {
      const prefix = `script-${randomUUID()}`;
      const key = `${prefix}:routing`;
      const store = new RedisRoutingStore(testRedis!, prefix);
      // The lookups' fail-fast connection is one per process: this is the store's.
      const reader = sharedFailFastRedis(testRedis!);
      const sent = jest.spyOn(reader.connection, 'sendCommand');
      const redis = testRedisConnection();
      try {
        await store.write(only(entryOf('s1', await store.ticket(), 'first', '1s1')));
        for (let i = 0; i < 3; i++) expect(await serviceOf(store, 'number', '1s1')).toBe('first');
        const reads = sent.mock.calls.map(([command]) => command).filter((c) => c.args[2] === key);
        expect(reads.map((c) => c.name)).toHaveLength(3);
        expect(reads.slice(1).map((c) => c.name)).toEqual(['evalsha', 'evalsha']);
        // Redis forgets its scripts (as after a restart): the next write and read load it again.
        const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
        await Promise.all(nodes.map((node) => node.script('FLUSH')));
        await store.write(only(entryOf('s1', await store.ticket(), 'second', '1s1')));
        expect(await serviceOf(store, 'number', '1s1')).toBe('second');
      } finally {
        sent.mockRestore();
        await redis.del(key);
        redis.disconnect();
        reader.release();
        store.onModuleDestroy();
      }
    },
  );

  (testRedis ? it : it.skip)(
    'reads the built marker only beside a miss: a read of a number that routes runs no HEXISTS',
    async () => {
      const prefix = `reads-${randomUUID()}`;
      const store = new RedisRoutingStore(testRedis!, prefix);
      const redis = testRedisConnection();
      const calls = async (command: string) => {
        // A cluster connection knows its nodes once it has connected: asked at each count.
        await redis.exists(`${prefix}:routing`);
        const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
        const stats = await Promise.all(nodes.map((node) => node.info('commandstats')));
        const pattern = new RegExp(`cmdstat_${command}:calls=(\\d+)`);
        return stats.reduce((sum, text) => sum + Number(pattern.exec(text)?.[1] ?? 0), 0);
      };
      try {
        await store.write(only(entryOf('r1', await store.ticket(), 'first', '1r1')));
        // HEXISTS is the routing script's alone (commandstats count every client of the server).
        const before = await calls('hexists');
        for (let i = 0; i < 3; i++) expect(await serviceOf(store, 'number', '1r1')).toBe('first');
        expect((await calls('hexists')) - before).toBe(0);
        // A miss still says whether the table was built (it is not: no rebuild swept this one).
        expect(await store.read('number', '1r2')).toMatchObject({ entry: null, built: false });
        expect((await calls('hexists')) - before).toBeGreaterThanOrEqual(1);
      } finally {
        await redis.del(`${prefix}:routing`);
        redis.disconnect();
        store.onModuleDestroy();
      }
    },
  );

  it('the periodic whole-table rebuild is the maintenance task rebuild-routing, one schedule for every process', async () => {
    for (const ctx of [two.a, two.b])
      expect(ctx.app.get(MaintenanceTasks).schedules()).toContainEqual([
        'rebuild-routing',
        { jobId: ROUTING_REBUILD_JOB_ID, repeat: { every: ROUTING_REBUILD_INTERVAL_MS } },
      ]);
    const full = jest.spyOn(two.a.app.get(LookupRepository), 'resolvePage');
    try {
      const tasks = two.a.app.get(MaintenanceTasks);
      await tasks.run({ task: 'rebuild-routing' }, {} as QueueJob<MaintenanceJobData>);
      expect(full.mock.calls.filter(([after]) => after === null)).toHaveLength(1);
    } finally {
      full.mockRestore();
    }
  });
});
