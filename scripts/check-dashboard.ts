/**
 * The Grafana dashboard's expressions, run by a real Prometheus (Debian's `prometheus` package)
 * against two processes that export what the API and a worker export: the same Bull counts (every
 * process reads them from the one Redis), their own request and job series. Every panel's
 * expression must evaluate and return series, and a panel of Bull counts must show each job once
 * (3 delayed jobs are 3, not 6). CI runs it beside promtool:
 *
 *   npx ts-node --transpile-only scripts/check-dashboard.ts [dashboard.json]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DASHBOARD =
  process.argv[2] ?? join(__dirname, '..', 'deploy/grafana/dashboards/voice-assistant-config.json');
const PROMETHEUS = process.env.PROMETHEUS_BIN ?? 'prometheus';

/** What each process exports per queue: Bull's counts, read from Redis, alike in every process. */
const BULL_COUNTS: Record<string, Record<string, number>> = {
  waiting: { 'tool-call': 2, 'inbound-context-lookup': 1, maintenance: 0 },
  active: { 'tool-call': 1, 'inbound-context-lookup': 0, maintenance: 0 },
  delayed: { 'tool-call': 3, 'inbound-context-lookup': 0, maintenance: 4 },
  failed: { 'tool-call': 5, 'inbound-context-lookup': 2, maintenance: 0 },
};
const PENDING_ENTRIES = 4;

/** The exposition one process serves at its `n`th scrape (counters grow with `n`). */
function exposition(role: 'api' | 'worker', n: number): string {
  const lines: string[] = [];
  for (const [state, byQueue] of Object.entries(BULL_COUNTS)) {
    lines.push(`# TYPE queue_${state}_jobs gauge`);
    for (const [queue, count] of Object.entries(byQueue))
      lines.push(`queue_${state}_jobs{queue="${queue}"} ${count}`);
  }
  lines.push(
    '# TYPE activity_log_pending_entries gauge',
    `activity_log_pending_entries ${PENDING_ENTRIES}`,
  );
  const histogram = (name: string, labels: string, count: number) => {
    for (const le of ['0.05', '0.5', '+Inf'])
      lines.push(`${name}_bucket{${labels},le="${le}"} ${le === '0.05' ? count / 2 : count}`);
    lines.push(`${name}_sum{${labels}} ${count / 10}`, `${name}_count{${labels}} ${count}`);
  };
  lines.push('# TYPE http_request_duration_seconds histogram');
  histogram(
    'http_request_duration_seconds',
    'method="GET",route="/assistant/list",status="200"',
    10 * n,
  );
  histogram('http_request_duration_seconds', 'method="POST",route="/tool/create",status="400"', n);
  lines.push('# TYPE queue_job_duration_seconds histogram');
  histogram('queue_job_duration_seconds', 'queue="tool-call",outcome="completed"', 4 * n);
  histogram('queue_job_duration_seconds', 'queue="tool-call",outcome="failed"', n);
  lines.push('# TYPE webhook_request_duration_seconds histogram');
  histogram('webhook_request_duration_seconds', 'kind="inbound_context_lookup"', 5 * n);
  lines.push('# TYPE webhook_requests_total counter');
  lines.push(
    `webhook_requests_total{kind="inbound_context_lookup",outcome="success",error_class="none"} ${4 * n}`,
    `webhook_requests_total{kind="inbound_context_lookup",outcome="error",error_class="timeout"} ${n}`,
  );
  lines.push(
    '# TYPE process_resident_memory_bytes gauge',
    `process_resident_memory_bytes ${role === 'api' ? 120e6 : 90e6}`,
    '# TYPE nodejs_heap_size_used_bytes gauge',
    `nodejs_heap_size_used_bytes ${role === 'api' ? 60e6 : 40e6}`,
    '# TYPE health_ready gauge',
    'health_ready 1',
    '# TYPE health_dependency_up gauge',
    'health_dependency_up{dependency="database"} 1',
    'health_dependency_up{dependency="redis"} 1',
  );
  return `${lines.join('\n')}\n`;
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One stand-in process: its `/metrics`, with a count of the scrapes it answered. */
async function stubProcess(
  role: 'api' | 'worker',
): Promise<{ port: number; scrapes: () => number; server: Server }> {
  let n = 0;
  const server = createServer((_req, res) => {
    n += 1;
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(exposition(role, n));
  });
  return { port: await listen(server), scrapes: () => n, server };
}

interface QueryResult {
  status: string;
  error?: string;
  data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

async function query(base: string, expr: string): Promise<QueryResult> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
  return (await res.json()) as QueryResult;
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What is wrong with one panel expression's answer ('' when nothing). */
function problem(expr: string, answer: QueryResult): string {
  if (answer.status !== 'success') return `Prometheus refused it: ${answer.error}`;
  const series = answer.data?.result ?? [];
  if (series.length === 0) return 'no series (a metric or label the processes do not export?)';
  const bull = /\bqueue_(waiting|active|delayed|failed)_jobs\b/.exec(expr);
  if (!bull) return '';
  for (const { metric, value } of series) {
    const expected = BULL_COUNTS[bull[1]][metric.queue];
    if (expected === undefined)
      return `a series without its queue label: ${JSON.stringify(metric)}`;
    if (Number(value[1]) !== expected)
      return `queue ${metric.queue} shows ${value[1]} ${bull[1]} jobs, the processes each export ${expected} (counted once per process?)`;
  }
  return '';
}

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}

async function main(): Promise<void> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  const targets = dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })),
  );
  const api = await stubProcess('api');
  const worker = await stubProcess('worker');
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-check-'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 500ms, evaluation_interval: 500ms }',
      'scrape_configs:',
      `  - { job_name: voice-assistant-api, static_configs: [{ targets: ["127.0.0.1:${api.port}"] }] }`,
      `  - { job_name: voice-assistant-worker, static_configs: [{ targets: ["127.0.0.1:${worker.port}"] }] }`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=error',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    await until('Prometheus to be ready', async () => (await fetch(`${base}/-/ready`)).ok);
    // rate() needs two samples of each process in its window.
    await until(
      'three scrapes of both processes',
      () => api.scrapes() >= 3 && worker.scrapes() >= 3,
    );
    await until(
      'the scrapes to be queryable',
      async () => (await query(base, 'count(up == 1)')).data?.result[0]?.value[1] === '2',
    );
    const failures: string[] = [];
    for (const { title, expr } of targets) {
      const why = problem(expr, await query(base, expr));
      if (why) failures.push(`panel "${title}": ${expr}\n    ${why}`);
    }
    if (failures.length)
      throw new Error(
        `${failures.length} of ${targets.length} panel expressions fail:\n  ${failures.join('\n  ')}`,
      );
    process.stdout.write(
      `dashboard: ${targets.length} expressions checked against Prometheus with two processes\n`,
    );
  } finally {
    prometheus.kill('SIGTERM');
    api.server.close();
    worker.server.close();
    await new Promise((r) => prometheus.once('exit', r).once('error', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
