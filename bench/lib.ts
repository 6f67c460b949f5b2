import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { createConnection } from 'mysql2/promise';

export interface Server {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `entry` under ts-node in a child process and waits until `readyPath` answers 200. */
export async function startServer(
  entry: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath: string,
): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
      '-r',
      'ts-node/register/transpile-only',
      entry,
    ],
    {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}${readyPath}`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not become ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** Resident set size of a process in MB (from /proc), or NaN where unavailable. */
export function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts `node <args>` in its own process and, when `readyUrl` is given, waits until it answers 200.
 * BENCH_CPU_PROF=<dir> adds `--cpu-prof` (profiles are written when the process exits). The profiler
 * costs each process tens of ms of CPU a second however idle it is (its thread and the sampling
 * signals), counted in its /proc CPU: a profiled run's CPU figures are not the service's.
 */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  readyUrl?: string,
): Promise<Server> {
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...prof, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const deadline = Date.now() + 90_000;
  while (readyUrl) {
    if (child.exitCode !== null)
      throw new Error(`node ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`node ${args.join(' ')} did not become ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    url: readyUrl ? new URL(readyUrl).origin : '',
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export interface HttpResult {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  rssMb: number;
  errors: number;
  non2xx: number;
}

/** Called around the measured run of `load` (not its warm-up); `after` gets the requests it made. */
export interface Around {
  before(): Promise<void>;
  after(requests: number): Promise<void>;
}

export async function load(
  name: string,
  opts: autocannon.Options,
  pid: number | undefined,
  around?: Around,
): Promise<HttpResult> {
  // A short warm-up so JIT and pools are settled before the measured run.
  await autocannon({ ...opts, duration: 2 });
  await around?.before();
  const result = await autocannon(opts);
  await around?.after(result.requests.total);
  const figures = {
    name,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    rssMb: rssMb(pid),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(JSON.stringify(figures));
  return figures;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)];
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}`;
}

/** Drops and recreates the database `databaseUrl` names. */
export async function resetDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const db = url.pathname.slice(1);
  url.pathname = '/';
  const conn = await createConnection(url.toString());
  await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
}

/** One API call; returns the envelope's `data`, throws on a non-2xx answer. */
export async function api<T>(
  base: string,
  method: string,
  path: string,
  auth: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A new user's API key, created with the operator key. */
export async function createBenchKey(base: string, adminKey: string): Promise<string> {
  const { api_key } = await api<{ api_key: string }>(base, 'POST', '/auth/create-key', adminKey, {
    user_name: 'Bench',
    user_email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
  });
  return api_key;
}

/** The seeded assistants' templates (the bare lookup worker renders the same). */
export const SEED_PROMPT =
  'Hello {{context.name}}, tier {{ context.tier }}, balance {{context.balance}}.';
export const SEED_START_INSTRUCTION = 'Greet {{context.name}}';

/**
 * The data the read routes are measured on: 3 tools and `count` assistants (a templated prompt, a
 * provider key, the 3 tools attached). Returns the assistants' ids in creation order.
 */
export async function seedAssistants(base: string, key: string, count = 40): Promise<string[]> {
  const tools: string[] = [];
  for (let i = 0; i < 3; i++) {
    const tool = await api<{ tool_id: string }>(base, 'POST', '/tool/create', key, {
      tool_name: `tool_${i}`,
      tool_description: 'Returns a fixed value.',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: { ok: true } },
    });
    tools.push(tool.tool_id);
  }
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { assistant_id } = await api<{ assistant_id: string }>(
      base,
      'POST',
      '/assistant/create',
      key,
      {
        assistant_name: `A${i}`,
        assistant_description: 'Benchmark',
        assistant_prompt: SEED_PROMPT,
        assistant_start_instruction: SEED_START_INSTRUCTION,
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'voice-1', api_key: 'sk_bench_0123456789abcdef' },
      },
    );
    await api(base, 'POST', `/tool/attach/${assistant_id}`, key, { tool_ids: tools });
    ids.push(assistant_id);
  }
  return ids;
}

/** Statements a lookup may make: writing its own activity-log entry (counters, ids, transaction). */
const LOG_WRITE = /activity_log|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

/**
 * Counts the SQL statements `dataSource` runs from now on, but the activity log's own writes:
 * what a lookup reads from the database. Returns a function that stops counting and answers.
 */
export function countReadStatements(dataSource: {
  logger: { logQuery(query: string, ...rest: unknown[]): unknown };
}): () => number {
  const { logger } = dataSource;
  const original = logger.logQuery.bind(logger);
  let count = 0;
  logger.logQuery = (query: string, ...rest: unknown[]) => {
    if (!LOG_WRITE.test(query)) count += 1;
    return original(query, ...rest);
  };
  return () => {
    logger.logQuery = original;
    return count;
  };
}

/** A sample's percentiles, as the lookup benchmark reports them (one decimal). */
export interface Stats {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    p50: round(at(50)),
    p90: round(at(90)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** A webhook in its own process answering every POST at once with a three-key context. */
const WEBHOOK_SCRIPT = `
const http = require('node:http');
const body = JSON.stringify({ context: { name: 'Asha', tier: 'gold', balance: 1250 } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export function startWebhook(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-e', WEBHOOK_SCRIPT], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) =>
      resolve({ child, url: `http://127.0.0.1:${chunk.toString().trim()}/ctx` }),
    );
    child.once('exit', (code) => reject(new Error(`webhook process exited with ${code}`)));
  });
}
