import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { plainToInstance } from 'class-transformer';
import 'reflect-metadata';
import { DataSource, type QueryRunner, type Repository } from 'typeorm';
import {
  ActivityLogEntity,
  LOG_STATUSES,
  LOG_TYPES,
} from '../../../src/activity-log/activity-log.entity';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../../../src/activity-log/activity-log.service';
import { AttemptLedger, OUTCOME_UNKNOWN_MESSAGE } from '../../../src/activity-log/attempt-ledger';
import { LocalAttemptJournal } from '../../../src/activity-log/attempt-journal';
import { ActivityLogRepository } from '../../../src/activity-log/activity-log.repository';
import { LogsQueryDto } from '../../../src/activity-log/dto/logs-query.dto';
import { LogRetentionService } from '../../../src/activity-log/log-retention.service';
import { timestampParam } from '../../../src/activity-log/timestamp-param';
import { appDataSourceOptions } from '../../../src/app-data-source';
import type { ErrorClass } from '../../../src/contracts/error-class';
import { ActivityLogCountsErrorClass1795650000000 as MysqlCountsMigration } from '../../../src/database/migrations/mysql/1795650000000-ActivityLogCountsErrorClass';
import { ActivityLogCountsErrorClass1795650000001 as SqliteCountsMigration } from '../../../src/database/migrations/sqlite/1795650000001-ActivityLogCountsErrorClass';

/**
 * `GET /logs` totals come from per-day counters plus exact counts of the partial days at a
 * range's edges. On the real database of the run: after concurrent inserts, and after a
 * retention purge that cuts a day in half while entries keep arriving, and after the entries of
 * journaled attempts (some written twice, some "outcome unknown"), every filter's total (with
 * `error_class` too) equals COUNT(*) over the entries, and the counters equal the entries grouped
 * by their key.
 */
describe('activity log totals from per-day counters (e2e)', () => {
  let dataSource: DataSource;
  let repo: Repository<ActivityLogEntity>;
  let service: ActivityLogService;
  const userId = randomUUID();
  const assistants = [randomUUID(), randomUUID(), null];
  const day0 = Date.UTC(2000, 0, 1);
  const hour = 3600 * 1000;
  let n = 0;
  const CLASSES: ErrorClass[] = ['timeout', 'auth', 'http_5xx'];

  beforeAll(async () => {
    dataSource = await new DataSource({ ...appDataSourceOptions(), logging: false }).initialize();
    if (dataSource.options.type !== 'mysql') await dataSource.runMigrations();
    repo = dataSource.getRepository(ActivityLogEntity);
    service = new ActivityLogService(new ActivityLogRepository(repo));
  });

  afterAll(async () => {
    await service.onModuleDestroy();
    await dataSource.destroy();
  });

  /** The next entry at `at`; its attributes cycle through every value, error classes included. */
  function next(at: number): ActivityLogInput {
    n += 1;
    const failed = n % 5 !== 0;
    return {
      user_id: userId,
      log_type: LOG_TYPES[n % 3],
      status: LOG_STATUSES[failed ? 0 : 1],
      assistant_id: assistants[n % 3 === 1 ? n % 2 : 2] ?? null,
      room_name: `room-${n % 4}`,
      message: 'm',
      request_data: {},
      response_data: {},
      latency_ms: 1,
      timestamp: new Date(at),
      error_class: failed ? CLASSES[Math.floor(n / 5) % 3] : null,
    };
  }

  /** `count` entries at `at(i)`, written concurrently (so through shared group commits). */
  const write = (count: number, at: (i: number) => number) =>
    Promise.all(Array.from({ length: count }, (_, i) => service.record(next(at(i)))));

  const filterSets: Record<string, string | undefined>[] = [
    {},
    { error_class: 'timeout' },
    { error_class: 'internal' },
    { error_class: 'auth', log_type: 'tool_call' },
    { error_class: 'http_5xx', status: 'error', assistant_id: assistants[1] as string },
    { error_class: 'timeout', status: 'success' },
    { error_class: 'auth', from: new Date(day0 + 30 * hour + 1234).toISOString() },
    { error_class: 'internal', to: new Date(day0 + 50 * hour).toISOString() },
    {
      error_class: 'http_5xx',
      log_type: 'end_call_webhook',
      from: new Date(day0 + 7 * hour).toISOString(),
      to: new Date(day0 + 100 * hour).toISOString(),
    },
    {
      error_class: 'timeout',
      from: new Date(day0 + 25 * hour).toISOString(),
      to: new Date(day0 + 26 * hour).toISOString(),
    },
    { log_type: 'tool_call' },
    { status: 'error' },
    { assistant_id: assistants[0] as string },
    { log_type: 'end_call_webhook', status: 'success' },
    { log_type: 'inbound_context_lookup', assistant_id: assistants[1] as string },
    { room_name: 'room-1' },
    { from: new Date(day0 + 24 * hour).toISOString() },
    { from: new Date(day0 + 30 * hour + 1234).toISOString() },
    { to: new Date(day0 + 50 * hour).toISOString() },
    { to: new Date(day0 + 48 * hour).toISOString() },
    {
      from: new Date(day0 + 7 * hour).toISOString(),
      to: new Date(day0 + 100 * hour).toISOString(),
    },
    {
      from: new Date(day0 + 25 * hour).toISOString(),
      to: new Date(day0 + 26 * hour).toISOString(),
    },
    {
      from: new Date(day0 + 12 * hour).toISOString(),
      to: new Date(day0 + 80 * hour).toISOString(),
      status: 'success',
      log_type: 'tool_call',
    },
  ];

  async function countRows(filters: Record<string, string | undefined>): Promise<number> {
    let sql = 'SELECT COUNT(*) AS total FROM activity_logs WHERE user_id = ?';
    const params: unknown[] = [userId];
    for (const key of ['log_type', 'status', 'assistant_id', 'room_name', 'error_class'] as const) {
      if (filters[key] === undefined) continue;
      sql += ` AND ${key} = ?`;
      params.push(filters[key]);
    }
    if (filters.from) {
      sql += ' AND timestamp >= ?';
      params.push(timestampParam(repo, new Date(filters.from)));
    }
    if (filters.to) {
      sql += ' AND timestamp <= ?';
      params.push(timestampParam(repo, new Date(filters.to)));
    }
    const [row] = await dataSource.query<{ total: string | number }[]>(sql, params);
    return Number(row.total);
  }

  async function expectTotalsMatch(): Promise<void> {
    for (const filters of filterSets) {
      const total = await new ActivityLogRepository(repo).countMatching(
        userId,
        plainToInstance(LogsQueryDto, filters),
      );
      expect({ filters, total }).toEqual({ filters, total: await countRows(filters) });
    }
    const counters = await dataSource.query<Record<string, unknown>[]>(
      'SELECT day, log_type, status, assistant_id, error_class, entries FROM activity_log_counts WHERE user_id = ? AND entries <> 0',
      [userId],
    );
    expect(normalize(counters)).toEqual(normalize(await groupedEntries()));
  }

  /** The user's entries grouped by the counters' key. */
  function groupedEntries(): Promise<Record<string, unknown>[]> {
    const day =
      dataSource.options.type === 'mysql' ? 'DATE(timestamp)' : 'substr(timestamp, 1, 10)';
    return dataSource.query<Record<string, unknown>[]>(
      `SELECT ${day} AS day, log_type, status, COALESCE(assistant_id, '') AS assistant_id,
         COALESCE(error_class, '') AS error_class, COUNT(*) AS entries
       FROM activity_logs WHERE user_id = ?
       GROUP BY ${day}, log_type, status, COALESCE(assistant_id, ''), COALESCE(error_class, '')`,
      [userId],
    );
  }

  const normalize = (rows: Record<string, unknown>[]) =>
    rows
      .map((r) =>
        [
          r.day instanceof Date ? r.day.toISOString().slice(0, 10) : String(r.day).slice(0, 10),
          r.log_type,
          r.status,
          r.assistant_id,
          r.error_class,
          Number(r.entries),
        ].join(' '),
      )
      .sort();

  it('totals equal COUNT(*) after concurrent inserts over several days', async () => {
    // Six days, entries on exact midnights too.
    await Promise.all([
      write(150, (i) => day0 + i * 57 * 60 * 1000),
      write(40, (i) => day0 + (i % 6) * 24 * hour),
      write(60, (i) => day0 + 24 * hour + i * 1000),
    ]);
    expect(await countRows({})).toBe(250);
    await expectTotalsMatch();
  });

  it('counts error_class totals from the counters: entry by entry only on the partial edge days', async () => {
    const reader = new ActivityLogRepository(repo);
    const exact = jest.spyOn(reader, 'countExact');
    const total = (filters: Record<string, string>) =>
      reader.countMatching(userId, plainToInstance(LogsQueryDto, filters));
    expect(await total({ error_class: 'timeout', log_type: 'tool_call' })).toBe(
      await countRows({ error_class: 'timeout', log_type: 'tool_call' }),
    );
    expect(exact).not.toHaveBeenCalled();
    const range = {
      error_class: 'auth',
      from: new Date(day0 + 30 * hour).toISOString(),
      to: new Date(day0 + 100 * hour).toISOString(),
    };
    expect(await total(range)).toBe(await countRows(range));
    // Day 1 from 06:00 and day 4 until 04:00; days 2 and 3 from the counters.
    expect(exact).toHaveBeenCalledTimes(2);
  });

  it('totals equal COUNT(*) after journaled attempts: outcomes, "outcome unknown", entries offered twice', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const ledger = new AttemptLedger(new LocalAttemptJournal(), service);
    const jobs = Array.from({ length: 30 }, (_, i) => ({
      queue: 'end-call-webhook' as const,
      id: `${randomUUID()}-${i}`,
      timestamp: day0 + i,
    }));
    await Promise.all(
      jobs.map(async (job, i) => {
        const at = day0 + (i % 4) * 24 * hour + i * 60_000;
        const first = await ledger.begin(job, next(at));
        // A third: the outcome is recorded. A third: written, but the worker died before the
        // journal was settled, so the redelivery offers it again. A third: lost before its entry.
        if (i % 3 !== 2) await service.record({ ...next(at), attempt_key: first?.key });
        if (i % 3 === 0) await ledger.record(next(at), first);
        // The redelivery: a run of its own, so a JournalJob of its own.
        await ledger.recoverLost({ ...job });
      }),
    );
    const [{ unknown }] = await dataSource.query<{ unknown: string | number }[]>(
      'SELECT COUNT(*) AS unknown FROM activity_logs WHERE user_id = ? AND message = ?',
      [userId, OUTCOME_UNKNOWN_MESSAGE],
    );
    expect(Number(unknown)).toBe(10);
    await expectTotalsMatch();
  });

  it('totals equal COUNT(*) after a purge that cuts a day in half while entries keep arriving', async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const retention = new LogRetentionService(
      repo,
      new ConfigService({ logs: { retentionDays: 1 } }),
    );
    // Cutoff: 2000-01-02T15:00Z.
    const [purge] = await Promise.all([
      retention.purge(new Date(day0 + 63 * hour), 7),
      write(60, (i) => day0 + 70 * hour + i * 60_000),
      write(30, (i) => day0 + 30 * hour + i * 60_000),
    ]);
    expect(purge.deleted).toBeGreaterThan(0);
    await expectTotalsMatch();
  });

  it('the migration that keys the counters by error class rebuilds them from the entries', async () => {
    if (dataSource.options.type !== 'mysql') {
      // This run's own SQLite file: the migration runs on the counters themselves.
      await dataSource.query('DELETE FROM activity_log_counts WHERE user_id = ?', [userId]);
      await runDownUp(new SqliteCountsMigration(), () => Promise.resolve(undefined));
      await expectTotalsMatch();
      return;
    }
    // MySQL is shared with the other e2e files: the migration runs in a scratch database holding
    // a copy of this user's entries, under counters in the shape before it.
    const [{ db }] = await dataSource.query<{ db: string }[]>('SELECT DATABASE() AS db');
    const scratch = `${db}_counts_migration_${process.pid}`;
    await dataSource.query(`CREATE DATABASE \`${scratch}\``);
    try {
      await dataSource.query(`CREATE TABLE \`${scratch}\`.activity_logs LIKE activity_logs`);
      await dataSource.query(
        `INSERT INTO \`${scratch}\`.activity_logs SELECT * FROM activity_logs WHERE user_id = ?`,
        [userId],
      );
      await dataSource.query(
        `CREATE TABLE \`${scratch}\`.activity_log_counts LIKE activity_log_counts`,
      );
      const counters = await runDownUp(new MysqlCountsMigration(), (runner) =>
        runner.query(
          'SELECT day, log_type, status, assistant_id, error_class, entries FROM activity_log_counts',
        ),
      );
      expect(normalize(counters as Record<string, unknown>[])).toEqual(
        normalize(await groupedEntries()),
      );
    } finally {
      await dataSource.query(`DROP DATABASE \`${scratch}\``);
    }

    /** `down` then `up` on one connection (switched to the scratch database on MySQL). */
    async function runDownUp(
      migration: MysqlCountsMigration | SqliteCountsMigration,
      read: (runner: QueryRunner) => Promise<unknown>,
    ): Promise<unknown> {
      const runner = dataSource.createQueryRunner();
      try {
        if (dataSource.options.type === 'mysql') await runner.query(`USE \`${scratch}\``);
        await migration.down(runner);
        await migration.up(runner);
        return await read(runner);
      } finally {
        if (dataSource.options.type === 'mysql') await runner.query(`USE \`${db}\``);
        await runner.release();
      }
    }
  });
});
