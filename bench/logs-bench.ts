/**
 * `npm run bench:logs`: GET /logs query cost on MySQL at 1,000,000 activity-log rows.
 *
 * Seeds (once; `--reseed` to start over) a dedicated database (BENCH_DATABASE_URL, default
 * mysql://root@127.0.0.1:3306/vac_bench_logs, its own database: other benches drop theirs) with 1,000,000 rows: one heavy user holding half of them
 * over 90 days, 100 other users sharing the rest. Then, for each filter of GET /logs, times the
 * three statements the endpoint runs (page ids from the index, the page's rows, the count) through
 * the real `ActivityLogService`, on the first page, a deep page and the last page, and records the
 * index MySQL chose (EXPLAIN). Results: bench/results/logs.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'reflect-metadata';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_logs';
// Entities read the driver from the environment when imported: set it before importing them.
process.env.DATABASE_URL = DATABASE_URL;

const TOTAL_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const HEAVY_SHARE = 0.5;
const OTHER_USERS = 100;
const ASSISTANTS = 20;
const ROOMS = 5000;
const DAYS = 90;
const BATCH = 4000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const HEAVY_USER = '00000000-0000-4000-8000-00000000beef';
const LOG_TYPES = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'] as const;

const assistantId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const roomName = (i: number) => `room-${String(i).padStart(5, '0')}`;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function timeIt(
  runs: number,
  fn: () => Promise<unknown>,
): Promise<{ p50: number; p99: number }> {
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

async function main(): Promise<void> {
  const { DataSource } = await import('typeorm');
  const { plainToInstance } = await import('class-transformer');
  const { appDataSourceOptions } = await import('../src/app-data-source');
  const { loadAppConfig } = await import('../src/config/app-config');
  const { ActivityLogEntity } = await import('../src/activity-log/activity-log.entity');
  const { ActivityLogService } = await import('../src/activity-log/activity-log.service');
  const { ActivityLogRepository } = await import('../src/activity-log/activity-log.repository');
  const { LogsQueryDto } = await import('../src/activity-log/dto/logs-query.dto');
  const { skipOf } = await import('../src/common/pagination/pagination-query.dto');
  const { rebuildCounts } = await import('../src/activity-log/log-counts');

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

  const dataSource = new DataSource({
    ...appDataSourceOptions(loadAppConfig({ ...process.env, DATABASE_URL }).database),
    logging: false,
  });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  const repo = dataSource.getRepository(ActivityLogEntity);
  const queries = new ActivityLogRepository(repo);
  const service = new ActivityLogService(queries);

  // Seed.
  const [{ n }] = await dataSource.query<{ n: string }[]>(
    'SELECT COUNT(*) AS n FROM activity_logs',
  );
  let seedSeconds: number | null = null;
  if (Number(n) < TOTAL_ROWS) {
    await dataSource.query('TRUNCATE TABLE activity_logs');
    const otherUsers = Array.from({ length: OTHER_USERS }, () => randomUUID());
    const now = Date.now();
    const started = performance.now();
    const columns =
      '(user_id, log_type, status, assistant_id, room_name, timestamp, message, request_data, response_data, latency_ms)';
    const rowSql = '(?,?,?,?,?,?,?,?,?,?)';
    for (let offset = 0; offset < TOTAL_ROWS; offset += BATCH) {
      const size = Math.min(BATCH, TOTAL_ROWS - offset);
      const params: unknown[] = [];
      for (let k = 0; k < size; k += 1) {
        const i = offset + k;
        const heavy = i % 2 === 0 && i / TOTAL_ROWS < HEAVY_SHARE * 2;
        const user = heavy ? HEAVY_USER : otherUsers[i % OTHER_USERS];
        const type = LOG_TYPES[(i * 7) % 3];
        const status = i % 10 === 0 ? 'error' : 'success';
        const at = new Date(now - Math.floor(((TOTAL_ROWS - i) / TOTAL_ROWS) * DAYS * 86_400_000));
        params.push(
          user,
          type,
          status,
          assistantId(i % ASSISTANTS),
          roomName((i >> 1) % ROOMS),
          at,
          `${type} ${status}`,
          JSON.stringify({
            url: 'https://hooks.example.com/x',
            attempt: 1,
            payload: { caller_number: '+15550100' },
          }),
          JSON.stringify({
            status_code: status === 'error' ? 503 : 200,
            body: { ok: status === 'success' },
          }),
          (i * 37) % 900,
        );
      }
      await dataSource.query(
        `INSERT INTO activity_logs ${columns} VALUES ${new Array(size).fill(rowSql).join(',')}`,
        params,
      );
      if ((offset / BATCH) % 25 === 0)
        process.stdout.write(`\rseeded ${offset + size} / ${TOTAL_ROWS}`);
    }
    seedSeconds = (performance.now() - started) / 1000;
    process.stdout.write(`\rseeded ${TOTAL_ROWS} rows in ${seedSeconds.toFixed(1)} s\n`);
    await dataSource.query('ANALYZE TABLE activity_logs');
    // The seed bypassed ActivityLogService: recompute the per-day counters from the rows.
    await rebuildCounts(dataSource);
  }

  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const weekAgo = daysAgo(7);
  const monthAgo = daysAgo(30);
  const tenDaysAgo = daysAgo(10);
  const threeDaysAgo = daysAgo(3);
  const scenarios: [string, Record<string, string>][] = [
    ['no filter', {}],
    ['log_type', { log_type: 'end_call_webhook' }],
    ['assistant_id', { assistant_id: assistantId(4) }],
    ['room_name', { room_name: roomName(1234) }],
    ['status', { status: 'error' }],
    ['from (last 7 days)', { from: weekAgo }],
    ['to (until 30 days ago)', { to: monthAgo }],
    ['from + to (10 to 3 days ago)', { from: tenDaysAgo, to: threeDaysAgo }],
    ['log_type + assistant_id', { log_type: 'tool_call', assistant_id: assistantId(4) }],
    ['log_type + status', { log_type: 'tool_call', status: 'error' }],
  ];

  const rows: string[] = [];
  const explains: string[] = [];
  for (const [name, filters] of scenarios) {
    const base = plainToInstance(LogsQueryDto, { ...filters });
    const total = await queries.countMatching(HEAVY_USER, base);
    // `total` must be exact: the counter sum equals COUNT(*) over the rows themselves.
    const counted = await queries.countExact(HEAVY_USER, base);
    if (total !== counted) throw new Error(`${name}: total ${total} but COUNT(*) ${counted}`);
    const lastPage = Math.max(1, Math.ceil(total / 50));
    const deepPage = Math.min(lastPage, 200);
    const pages: [string, number][] = [
      ['first', 1],
      [`deep (page ${deepPage})`, deepPage],
      [`last (page ${lastPage})`, lastPage],
    ];
    const countTime = await timeIt(RUNS, () => queries.countMatching(HEAVY_USER, base));
    const cells: string[] = [];
    for (const [, page] of pages) {
      const q = plainToInstance(LogsQueryDto, { ...filters, page: String(page), limit: '50' });
      const runs = page > 1000 ? Math.max(5, Math.floor(RUNS / 3)) : RUNS;
      const ids = await timeIt(runs, () => queries.pageIds(HEAVY_USER, q, skipOf(q)));
      const whole = await timeIt(runs, () => service.list(HEAVY_USER, q));
      cells.push(
        `${ids.p50.toFixed(1)} / ${ids.p99.toFixed(1)}`,
        `${whole.p50.toFixed(1)} / ${whole.p99.toFixed(1)}`,
      );
    }
    rows.push(
      `| ${name} | ${total} | ${cells.join(' | ')} | ${countTime.p50.toFixed(1)} / ${countTime.p99.toFixed(1)} |`,
    );

    const first = plainToInstance(LogsQueryDto, { ...filters });
    // The statements list() runs: the index intersection on combined filters, else the query builder.
    const joined = queries.intersection(HEAVY_USER, first);
    const [idSql, idParams] = joined
      ? [
          `SELECT a.id AS id FROM ${joined.from} WHERE ${joined.where} ORDER BY a.timestamp DESC, a.id DESC LIMIT 50`,
          joined.params,
        ]
      : queries
          .filtered(HEAVY_USER, first)
          .select('l.id', 'id')
          .orderBy('l.timestamp', 'DESC')
          .addOrderBy('l.id', 'DESC')
          .limit(50)
          .getQueryAndParameters();
    // Totals are summed from the per-day counters, except with room_name (counted in the index).
    const statements: [string, string, unknown[]][] = [['page ids', idSql, idParams]];
    if (filters.room_name) {
      const [countSql, countParams] = queries
        .filtered(HEAVY_USER, first)
        .select('COUNT(*)', 'total')
        .getQueryAndParameters();
      statements.push(['count', countSql, countParams]);
    }
    for (const [label, sql, params] of statements) {
      const plan = await dataSource.query<Record<string, string | number | null>[]>(
        `EXPLAIN ${sql}`,
        params,
      );
      // One line per table of the plan: the driving index, then each intersected one.
      const cell = (f: (step: Record<string, string | number | null>) => unknown) =>
        plan.map((step) => String(f(step))).join(' ⨝ ');
      explains.push(
        `| ${name} | ${label} | ${cell((s) => s.key)} | ${cell((s) => s.type)} | ${cell((s) => s.rows)} | ${cell((s) => s.Extra ?? '')} |`,
      );
    }
    process.stdout.write(`${name}: ${total} rows\n`);
  }

  const [{ total: heavyTotal }] = await dataSource.query<{ total: string }[]>(
    'SELECT COUNT(*) AS total FROM activity_logs WHERE user_id = ?',
    [HEAVY_USER],
  );
  const report = `# GET /logs at ${TOTAL_ROWS.toLocaleString('en-US')} rows (MySQL)

Generated by \`npm run bench:logs\` (bench/logs-bench.ts) on ${new Date().toISOString()}.
Server: ${version}; ${process.platform} ${process.arch}, Node ${process.version}.
${seedSeconds !== null ? `Seeding ${TOTAL_ROWS.toLocaleString('en-US')} rows with ${BATCH}-row INSERTs took ${seedSeconds.toFixed(1)} s.` : 'Rows were already seeded by an earlier run.'}

Data: ${TOTAL_ROWS.toLocaleString('en-US')} rows over ${DAYS} days; the measured user owns ${Number(heavyTotal).toLocaleString('en-US')} of them
(the rest belong to ${OTHER_USERS} other users), spread over ${ASSISTANTS} assistants, ${ROOMS} rooms, 3 log types, 10% errors.
Every query runs as the endpoint runs it, through \`ActivityLogService\`: the page's ids from the
\`(user_id, <filter>, timestamp, id)\` index, then those 50 rows by primary key, with the total beside it.
The total (\`count\`) sums the per-day counters (\`activity_log_counts\`) for the whole UTC days of the
range and counts the partial days at its edges in the index; with \`room_name\` it is counted in the index.
Times in milliseconds, p50 / p99 over ${RUNS} runs after 3 warm-up runs (fewer runs for pages past 1,000),
measured from Node over a local connection, limit 50.

| filter | matching rows (\`total\`, checked = COUNT(*)) | first page: ids | first page: whole | deep page: ids | deep page: whole | last page: ids | last page: whole | count |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

"whole" is \`list()\`: page ids and count in parallel, then the rows; it is what GET /logs waits for,
minus HTTP. Deep and last pages walk the index up to the offset (OFFSET cost grows with the page
number), but never read the skipped rows themselves.

## Plans (EXPLAIN, first page)

Combined filters are joined index to index on \`(user_id, value, timestamp, id)\` (⨝ separates the tables of the plan).

| filter | statement | key | type | rows (estimate) | Extra |
|---|---|---|---|---|---|
${explains.join('\n')}
`;
  const out = join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'logs.md'), report);
  process.stdout.write(`written ${join(out, 'logs.md')}\n`);
  await dataSource.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
