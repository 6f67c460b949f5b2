/**
 * `npm run bench:logs`: GET /logs and GET /logs/health cost on MySQL at 1,000,000 activity-log rows.
 *
 * Seeds (once; `--reseed` to start over) a dedicated database (BENCH_DATABASE_URL, default
 * mysql://root@127.0.0.1:3306/vac_bench_logs, its own database: other benches drop theirs) with
 * 1,000,000 rows (bench/logs-seed.ts): one heavy user holding half of them over 90 days, 100 other
 * users sharing the rest. Then, for each filter of GET /logs, times `ActivityLogService.list()`
 * (what the endpoint waits for, minus HTTP) on offset pages and on cursor pages at the first,
 * deep, middle and last positions, and `LogHealthService.health()` over 24 hours to 90 days,
 * and records the plans MySQL chose for the last cursor page (EXPLAIN of the statements `list()`
 * ran). Results: bench/results/logs.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'reflect-metadata';
import type { Logger } from 'typeorm';
import { logsReport, type Measured } from './logs-report';
import { daysAgo, HEAVY_USER, scenarios } from './logs-seed';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_logs';
// Entities read the driver from the environment when imported: set it before importing them.
process.env.DATABASE_URL = DATABASE_URL;

const TOTAL_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const LIMIT = 50;

type Timing = { p50: number; p99: number };

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 3; i += 1) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Keeps the statements TypeORM sends while armed, to EXPLAIN what a call really ran. */
class StatementRecorder implements Logger {
  armed = false;
  statements: [string, unknown[]][] = [];
  logQuery(query: string, parameters?: unknown[]): void {
    if (this.armed) this.statements.push([query, parameters ?? []]);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

async function main(): Promise<void> {
  const { DataSource } = await import('typeorm');
  const { appDataSourceOptions } = await import('../src/app-data-source');
  const { loadAppConfig } = await import('../src/config/app-config');
  const { ActivityLogEntity } = await import('../src/activity-log/activity-log.entity');
  const { ActivityLogTargetCountEntity } =
    await import('../src/activity-log/activity-log-target-count.entity');
  const { ActivityLogService } = await import('../src/activity-log/activity-log.service');
  const { ActivityLogRepository } = await import('../src/activity-log/activity-log.repository');
  const { LogHealthService } = await import('../src/activity-log/log-health.service');
  const { seedLogs } = await import('./logs-seed');

  const version = await ensureDatabase();
  const recorder = new StatementRecorder();
  const dataSource = new DataSource({
    ...appDataSourceOptions(loadAppConfig({ ...process.env, DATABASE_URL }).database),
    logging: false,
    logger: recorder,
  });
  await dataSource.initialize();
  const migrationStarted = performance.now();
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  const migrations = {
    names: ran.map((migration) => migration.name),
    seconds: (performance.now() - migrationStarted) / 1000,
  };
  if (ran.length)
    process.stdout.write(
      `migrations ${migrations.names.join(', ')}: ${migrations.seconds.toFixed(1)} s\n`,
    );
  const [{ n }] = await dataSource.query<{ n: string }[]>(
    'SELECT COUNT(*) AS n FROM activity_logs',
  );
  const seedSeconds = Number(n) < TOTAL_ROWS ? await seedLogs(dataSource, TOTAL_ROWS) : null;

  const logs = new ActivityLogRepository(dataSource.getRepository(ActivityLogEntity));
  const service = new ActivityLogService(logs);
  const health = new LogHealthService(dataSource.getRepository(ActivityLogTargetCountEntity));
  const measured: Measured = {
    offset: [],
    cursor: [],
    health: [],
    explains: [],
    healthExplains: [],
  };
  for (const [name, filters] of scenarios()) {
    await measureFilter(service, logs, recorder, dataSource, name, filters, measured);
    process.stdout.write(`${name}: done\n`);
  }
  await measureHealth(health, recorder, dataSource, measured);

  const [{ total: heavyTotal }] = await dataSource.query<{ total: string }[]>(
    'SELECT COUNT(*) AS total FROM activity_logs WHERE user_id = ?',
    [HEAVY_USER],
  );
  const report = logsReport({
    rows: TOTAL_ROWS,
    heavyRows: Number(heavyTotal),
    version,
    seedSeconds,
    migrations,
    runs: RUNS,
    measured,
  });
  const out = join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'logs.md'), report);
  process.stdout.write(`written ${join(out, 'logs.md')}\n`);
  await service.onModuleDestroy();
  await dataSource.destroy();
}

/** Creates the bench database if needed (drops it first with `--reseed`); returns the server version. */
async function ensureDatabase(): Promise<string> {
  const { DataSource } = await import('typeorm');
  const server = new URL(DATABASE_URL);
  const database = server.pathname.replace(/^\//, '');
  server.pathname = '/';
  const admin = new DataSource({ type: 'mysql', url: server.toString() });
  await admin.initialize();
  if (process.argv.includes('--reseed'))
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.query(
    `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  const [{ version }] = await admin.query<{ version: string }[]>('SELECT VERSION() AS version');
  await admin.destroy();
  return version;
}

type Service = InstanceType<
  (typeof import('../src/activity-log/activity-log.service'))['ActivityLogService']
>;
type Health = InstanceType<
  (typeof import('../src/activity-log/log-health.service'))['LogHealthService']
>;
type Logs = InstanceType<
  (typeof import('../src/activity-log/activity-log.repository'))['ActivityLogRepository']
>;
type Source = InstanceType<(typeof import('typeorm'))['DataSource']>;

/** Offset pages and cursor pages of one filter, and the plans of its last cursor page. */
async function measureFilter(
  service: Service,
  logs: Logs,
  recorder: StatementRecorder,
  dataSource: Source,
  name: string,
  filters: Record<string, string>,
  measured: Measured,
): Promise<void> {
  const { plainToInstance } = await import('class-transformer');
  const { LogsQueryDto } = await import('../src/activity-log/dto/logs-query.dto');
  const query = (extra: Record<string, string>) =>
    plainToInstance(LogsQueryDto, { ...filters, limit: String(LIMIT), ...extra });
  const base = query({});
  const total = await logs.countMatching(HEAVY_USER, base);
  // `total` must be exact: the counter sum equals COUNT(*) over the rows themselves.
  const counted = await logs.countExact(HEAVY_USER, base);
  if (total !== counted) throw new Error(`${name}: total ${total} but COUNT(*) ${counted}`);
  const lastPage = Math.max(1, Math.ceil(total / LIMIT));
  const positions: [string, number][] = [
    ['first', 1],
    ['deep', Math.min(lastPage, 200)],
    ['middle', Math.max(1, Math.ceil(lastPage / 2))],
    ['last', lastPage],
  ];
  const offsetCells: string[] = [];
  const cursorCells: string[] = [];
  let lastCursor: string | undefined;
  for (const [label, page] of positions) {
    const runs = page > 1000 ? Math.max(5, Math.floor(RUNS / 3)) : RUNS;
    const offset = await timeIt(runs, () =>
      service.list(HEAVY_USER, query({ page: String(page) })),
    );
    offsetCells.push(`${cell(offset)} (p. ${page})`);
    // The cursor page at this position: the one after page `from`, reached by its `next_cursor`
    // (the first page by cursor is page 2).
    const from = Math.max(1, page - 1);
    const cursor = (await service.list(HEAVY_USER, query({ page: String(from) }))).next_cursor;
    if (!cursor) {
      cursorCells.push('(one page)');
      continue;
    }
    const reached = await service.list(HEAVY_USER, query({ cursor }));
    if (label === 'last' && reached.next_cursor !== null)
      throw new Error(`${name}: the last cursor page has a next_cursor`);
    const timing = await timeIt(RUNS, () => service.list(HEAVY_USER, query({ cursor })));
    cursorCells.push(`${cell(timing)} (p. ${from + 1})`);
    lastCursor = cursor;
  }
  measured.offset.push(`| ${name} | ${total} | ${offsetCells.join(' | ')} |`);
  measured.cursor.push(`| ${name} | ${total} | ${cursorCells.join(' | ')} |`);
  const last = query(lastCursor ? { cursor: lastCursor } : {});
  measured.explains.push(
    ...(await explain(recorder, dataSource, name, () => service.list(HEAVY_USER, last))),
  );
}

/** EXPLAIN of every SELECT `call` sends, one row per statement. */
async function explain(
  recorder: StatementRecorder,
  dataSource: Source,
  name: string,
  call: () => Promise<unknown>,
): Promise<string[]> {
  recorder.statements = [];
  recorder.armed = true;
  await call();
  recorder.armed = false;
  const rows: string[] = [];
  for (const [sql, params] of recorder.statements) {
    if (!/^\s*SELECT/i.test(sql)) continue;
    const plan = await dataSource.query<Record<string, string | number | null>[]>(
      `EXPLAIN ${sql}`,
      params,
    );
    const of = (f: (step: Record<string, string | number | null>) => unknown) =>
      plan.map((step) => String(f(step))).join(' ⨝ ');
    const what = /COUNT\(|SUM\(/i.test(sql) ? 'count' : /IN \(/i.test(sql) ? 'rows' : 'page ids';
    rows.push(
      `| ${name} | ${what} | ${of((s) => s.table)} | ${of((s) => s.key)} | ${of((s) => s.type)} | ${of((s) => s.rows)} | ${of((s) => s.Extra ?? '')} |`,
    );
  }
  return rows;
}

async function measureHealth(
  health: Health,
  recorder: StatementRecorder,
  dataSource: Source,
  measured: Measured,
): Promise<void> {
  const { plainToInstance } = await import('class-transformer');
  const { LogHealthQueryDto } = await import('../src/activity-log/dto/logs-query.dto');
  const ranges: [string, Record<string, string>][] = [
    ['last 24 hours (default)', {}],
    ['last 24 hours, log_type', { log_type: 'end_call_webhook' }],
    ['last 7 days', { from: daysAgo(7) }],
    ['last 90 days (every entry of the user)', { from: daysAgo(91) }],
  ];
  for (const [name, params] of ranges) {
    const query = plainToInstance(LogHealthQueryDto, params);
    const answer = await health.health(HEAVY_USER, query);
    const attempts = answer.targets.reduce((sum, t) => sum + t.attempts, 0);
    const timing = await timeIt(RUNS * 3, () => health.health(HEAVY_USER, query));
    measured.health.push(`| ${name} | ${attempts} | ${answer.targets.length} | ${cell(timing)} |`);
    measured.healthExplains.push(
      ...(await explain(recorder, dataSource, name, () => health.health(HEAVY_USER, query))),
    );
  }
}

const cell = (t: Timing) => `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)}`;

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
