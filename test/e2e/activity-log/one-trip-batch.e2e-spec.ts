import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import 'reflect-metadata';
import { DataSource, In, type Repository } from 'typeorm';
import { ActivityLogEntity } from '../../../src/activity-log/activity-log.entity';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../../../src/activity-log/activity-log.service';
import { ActivityLogRepository } from '../../../src/activity-log/activity-log.repository';
import { GroupCommitWriter, type LogRow } from '../../../src/activity-log/group-commit-writer';
import { appDataSourceOptions } from '../../../src/app-data-source';

// By path: mysql2's `exports` map does not publish its internals (the module TypeORM loads).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BaseConnection = require(
  join(dirname(require.resolve('mysql2')), 'lib/base/connection.js'),
) as { prototype: { query: (...args: unknown[]) => unknown } };

/**
 * On MySQL a batch of the activity log's group commit is one round trip: its transaction (the
 * entries' INSERT, both counter upserts, the commit) is one multi-statement query on the writer's
 * own pool. On the real database of the run (MySQL, or the embedded SQLite file, where the
 * batch runs through TypeORM and only the round trips are not checked): ids, both counter tables
 * and the attempt-key dedupe stay right, and a batch that fails leaves nothing half written.
 */
describe('activity log batch in one round trip (e2e)', () => {
  let dataSource: DataSource;
  let repo: Repository<ActivityLogEntity>;
  let service: ActivityLogService;
  let mysql: boolean;
  const at = Date.UTC(2001, 1, 3, 4, 5, 6);

  beforeAll(async () => {
    dataSource = await new DataSource({ ...appDataSourceOptions(), logging: false }).initialize();
    if (dataSource.options.type !== 'mysql') await dataSource.runMigrations();
    mysql = dataSource.options.type === 'mysql';
    repo = dataSource.getRepository(ActivityLogEntity);
    service = new ActivityLogService(new ActivityLogRepository(repo));
  });

  afterAll(async () => {
    await service.onModuleDestroy();
    await dataSource.destroy();
  });

  afterEach(() => jest.restoreAllMocks());

  const entry = (
    userId: string,
    i: number,
    over: Partial<ActivityLogInput> = {},
  ): ActivityLogInput & { timestamp: Date } => {
    const failed = i % 3 === 0;
    return {
      user_id: userId,
      log_type: i % 2 ? 'tool_call' : 'end_call_webhook',
      status: failed ? 'error' : 'success',
      error_class: failed ? 'timeout' : null,
      assistant_id: null,
      room_name: `one-trip-${i}-${randomUUID()}`,
      message: 'm',
      request_data: i % 4 === 3 ? {} : { url: `https://hooks-${i % 2}.example.test/x` },
      response_data: {},
      latency_ms: 40 * i,
      timestamp: new Date(at + i),
      ...over,
    };
  };

  /** The entry as the writer stores it. */
  const toLogRow = (input: ActivityLogInput & { timestamp: Date }): LogRow => ({
    ...input,
    error_class: input.error_class ?? null,
    trace_id: null,
    request_body: null,
    replay_of: null,
    attempt_key: null,
  });

  /** How many entries the activity_logs INSERT of a one-trip batch carries. */
  const rowsOf = (sql: string) =>
    (sql.split(';').find((s) => /INSERT INTO `activity_logs`/.test(s)) ?? '').split('(?,').length -
    1;

  /** Every query mysql2 sends from now on, on any connection, with the connection it went on. */
  function spyQueries(): () => { sql: string; connection: number }[] {
    const spy = jest.spyOn(BaseConnection.prototype, 'query');
    return () =>
      spy.mock.calls.map((args, i) => ({
        sql: typeof args[0] === 'string' ? args[0] : String((args[0] as { sql?: string }).sql),
        connection: (spy.mock.contexts[i] as { threadId: number }).threadId,
      }));
  }

  /** Both counter tables hold exactly what the user's stored entries add up to. */
  async function expectCountersMatchEntries(userId: string): Promise<void> {
    const rows = await repo.find({ where: { user_id: userId } });
    const expected = new Map<string, number>();
    for (const r of rows) {
      const key = [r.log_type, r.status, r.assistant_id ?? '', r.error_class ?? ''].join('|');
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const counts = await dataSource.query<Record<string, string | number>[]>(
      'SELECT log_type, status, assistant_id, error_class, entries FROM activity_log_counts WHERE user_id = ?',
      [userId],
    );
    const stored = new Map(
      counts.map((c) => [
        [c.log_type, c.status, c.assistant_id, c.error_class].join('|'),
        Number(c.entries),
      ]),
    );
    expect(stored).toEqual(expected);
    const withUrl = rows.filter((r) => typeof r.request_data.url === 'string');
    const [targets] = await dataSource.query<Record<string, string | number | null>[]>(
      'SELECT SUM(attempts) AS attempts, SUM(errors) AS errors, MAX(latency_max_ms) AS max FROM activity_log_target_counts WHERE user_id = ?',
      [userId],
    );
    expect(Number(targets.attempts)).toBe(withUrl.length);
    expect(Number(targets.errors)).toBe(withUrl.filter((r) => r.status === 'error').length);
    expect(Number(targets.max)).toBe(Math.max(...withUrl.map((r) => r.latency_ms)));
  }

  it('writes a batch, both counter upserts and its commit as one query on MySQL', async () => {
    const userId = randomUUID();
    // The first batch reads the auto-increment step and opens the pool's connection.
    await service.record(entry(userId, 0));
    const queries = spyQueries();
    const key = `one-trip-${randomUUID()}`;
    const inputs = Array.from({ length: 12 }, (_, i) =>
      entry(userId, i + 1, i === 3 || i === 8 ? { attempt_key: key } : {}),
    );
    const ids = await Promise.all(inputs.map((input) => service.record(input)));
    if (mysql) {
      expect(queries()).toHaveLength(1);
      expect(queries()[0].sql).toMatch(
        /^START TRANSACTION;\s*INSERT INTO `activity_logs` [^;]*;\s*INSERT INTO activity_log_counts [^;]*;\s*INSERT INTO activity_log_target_counts [^;]*;\s*COMMIT$/,
      );
    }
    // The second entry of the attempt is the first one's.
    expect(ids[8]).toBe(ids[3]);
    expect(new Set(ids).size).toBe(11);
    const rows = await repo.find({ where: { id: In(ids as string[]) } });
    const roomOf = new Map(rows.map((row) => [String(row.id), row.room_name]));
    inputs.forEach((input, i) => i !== 8 && expect(roomOf.get(ids[i]!)).toBe(input.room_name));
    expect(await repo.count({ where: { user_id: userId } })).toBe(12);
    await expectCountersMatchEntries(userId);
  });

  it('rolls back a batch that meets a stored attempt on its connection, then writes it row by row', async () => {
    const userId = randomUUID();
    const key = `one-trip-${randomUUID()}`;
    const storedId = await service.record(entry(userId, 0, { attempt_key: key }));
    const queries = spyQueries();
    const inputs = Array.from({ length: 5 }, (_, i) =>
      entry(userId, i + 1, i === 2 ? { attempt_key: key } : {}),
    );
    const ids = await Promise.all(inputs.map((input) => service.record(input)));
    expect(ids[2]).toBe(storedId);
    expect(new Set(ids).size).toBe(5);
    expect(await repo.count({ where: { user_id: userId } })).toBe(5);
    await expectCountersMatchEntries(userId);
    if (mysql) {
      const sent = queries();
      const batches = sent.filter((q) => q.sql.startsWith('START TRANSACTION;'));
      // The batch, then each of its rows on its own.
      expect(batches.map((q) => rowsOf(q.sql))).toEqual([5, 1, 1, 1, 1, 1]);
      expect(sent[1]).toEqual({ sql: 'ROLLBACK', connection: sent[0].connection });
      expect(sent.filter((q) => q.sql === 'ROLLBACK')).toHaveLength(2);
    }
  });

  it('leaves nothing of a batch whose statement after the INSERT fails', async () => {
    const failed: LogRow[] = [];
    const poison = `poison-${randomUUID()}`;
    const writer = new GroupCommitWriter(
      repo,
      (row) => failed.push(row),
      (rows) =>
        rows.some((row) => row.room_name === poison)
          ? [{ sql: 'INSERT INTO activity_log_counts (no_such_column) VALUES (?)', params: [1] }]
          : [],
    );
    const userId = randomUUID();
    const rows = Array.from({ length: 5 }, (_, i) =>
      toLogRow(entry(userId, i, i === 1 ? { room_name: poison } : {})),
    );
    const later = toLogRow(entry(userId, 9));
    try {
      const written = await Promise.all(rows.map((row) => writer.write(row)));
      // Row by row, and this later batch, reuse the connection the failed batch left.
      expect(await writer.write(later)).not.toBeNull();
      expect(written[1]).toBeNull();
      expect(written.filter((w) => w?.inserted)).toHaveLength(4);
      expect(failed.map((row) => row.room_name)).toEqual([poison]);
      const stored = await repo.find({ where: { user_id: userId } });
      expect(stored.map((row) => row.room_name).sort()).toEqual(
        [...rows.filter((_, i) => i !== 1), later].map((row) => row.room_name).sort(),
      );
    } finally {
      await writer.close();
    }
  });

  it("serialises an entry's JSON once, to size its batch and to store it, also when written again row by row", async () => {
    let serialised = 0;
    const counted = (url: string) => ({
      url,
      toJSON: () => {
        serialised += 1;
        return { url };
      },
    });
    const poison = `poison-${randomUUID()}`;
    const writer = new GroupCommitWriter(
      repo,
      () => undefined,
      (rows) =>
        rows.some((row) => row.room_name === poison)
          ? [{ sql: 'INSERT INTO activity_log_counts (no_such_column) VALUES (?)', params: [1] }]
          : [],
    );
    const userId = randomUUID();
    const rows = [
      toLogRow(entry(userId, 1, { request_data: counted('https://hooks.example.test/a') })),
      toLogRow(entry(userId, 2, { room_name: poison })),
    ];
    try {
      // The batch fails on the poisoned row; the first is then written on its own.
      const [written] = await Promise.all(rows.map((row) => writer.write(row)));
      expect(written?.inserted).toBe(true);
      expect(serialised).toBe(1);
      const stored = await repo.findOneByOrFail({ id: written!.id });
      expect(stored.request_data).toEqual({ url: 'https://hooks.example.test/a' });
    } finally {
      await writer.close();
    }
  });
});
