/**
 * `npm run bench:lookup`: what the inbound-context-lookup job adds on top of the customer's
 * webhook. Boots the service in this process against a local webhook that answers at once,
 * then times `lookup()` from the call stack's side and subtracts the webhook round trip the
 * service measured itself (`latency_ms`): what is left is queueing, the database reads, the
 * activity-log write, rendering and the result's way back.
 *
 * The webhook runs in its own process so its answers are not delayed by the service's event loop.
 * Mode follows the environment: with REDIS_URL the producer is the standalone
 * `InboundContextLookupClient.fromRedisUrl` (as the call worker uses it), the API runs with
 * APP_ROLE=api in this process and jobs are consumed by a separate `src/worker.ts` process;
 * without it, jobs run in-process. DATABASE_URL selects MySQL, else a fresh SQLite file.
 * Results: bench/results/lookup-<mode>.json, summarised in bench/results/lookup.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'reflect-metadata';
import { BENCH_ADMIN_KEY, inProcessBenchEnv } from './in-process';
import { countReadStatements, startWebhook, stats, type Stats } from './lib';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 300);
const CONCURRENT_TOTAL = Number(process.env.BENCH_TOTAL ?? 3000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50);
const ADMIN_KEY = BENCH_ADMIN_KEY;
const { mode, redisUrl, sqliteDir } = inProcessBenchEnv('lookup', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });


interface Phase {
  lookups: number;
  in_flight: number;
  errors: number;
  seconds: number;
  lookups_per_second: number;
  error_kinds: Record<string, number>;
  overhead_ms: Stats;
  webhook_ms: Stats;
  round_trip_ms: Stats;
}

async function main(): Promise<void> {
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('../src/app.module');
  const { configureApp } = await import('../src/bootstrap/configure-app');
  const { AssistantEntity } = await import('../src/assistant/assistant.entity');
  const { DataSource } = await import('typeorm');
  const { InboundContextLookupClient } = await import('@voice-assistant-config/client');

  const webhook = await startWebhook();
  const app = await NestFactory.create(AppModule.register({ role: redisUrl ? 'api' : 'all' }), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  const call = async (path: string, body: unknown, auth: string) => {
    const res = await fetch(`${base.replace('[::1]', '127.0.0.1')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: Record<string, string> };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  const user = await call(
    '/auth/create-key',
    { user_name: 'Bench', user_email: `bench-${Date.now()}@example.com` },
    ADMIN_KEY,
  );
  const assistantId = crypto.randomUUID();
  await app.get(DataSource).getRepository(AssistantEntity).save({
    assistant_id: assistantId,
    user_id: user.user_id,
    assistant_name: 'Bench desk',
    assistant_description: 'bench',
    assistant_prompt:
      'Hello {{context.name}}, tier {{ context.tier }}, balance {{context.balance}}.',
    assistant_llm_mode: 'pipeline',
    assistant_start_instruction: 'Greet {{context.name}}',
    assistant_interaction_config: {},
    assistant_end_call_enabled: false,
  });
  const strategy = await call(
    '/inbound_context_strategy/create',
    {
      strategy_name: 'bench',
      strategy_type: 'webhook',
      strategy_config: { url: webhook.url, headers: { Authorization: 'Bearer x' } },
    },
    user.api_key,
  );
  const mapping = await call(
    '/inbound/assign',
    {
      assistant_id: assistantId,
      inbound_context_strategy_id: strategy.strategy_id,
      service: 'exotel',
      inbound_config: { phone_number: `+9${Date.now()}`.slice(0, 14) },
    },
    user.api_key,
  );

  const client = redisUrl
    ? InboundContextLookupClient.fromRedisUrl(redisUrl, { prefix: process.env.QUEUE_PREFIX })
    : app.get(InboundContextLookupClient);

  let worker: ChildProcess | undefined;
  if (redisUrl) {
    worker = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/worker.ts'], {
      env: { ...process.env, APP_ROLE: 'worker' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }

  let seq = 0;
  let waitMs = 120_000; // the first lookups wait for the worker process to boot
  const one = async (): Promise<{
    roundTrip: number;
    webhook: number;
    ok: boolean;
    error: string | null;
  }> => {
    seq += 1;
    const started = performance.now();
    const result = await client.lookup(
      { room_name: `bench-${seq}`, inbound_id: mapping.inbound_id, caller_number: '+919900000000' },
      { waitMs },
    );
    const roundTrip = performance.now() - started;
    return {
      roundTrip,
      webhook: result.latency_ms,
      ok: result.status === 'success',
      error: result.error,
    };
  };

  const phase = async (total: number, inFlight: number): Promise<Phase> => {
    const samples: { roundTrip: number; webhook: number; ok: boolean; error: string | null }[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < total) {
          next += 1;
          samples.push(await one());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      lookups: total,
      in_flight: inFlight,
      errors: samples.filter((s) => !s.ok).length,
      error_kinds: samples.reduce<Record<string, number>>((acc, s) => {
        if (s.error) {
          const kind = s.error.split(':')[0];
          acc[kind] = (acc[kind] ?? 0) + 1;
        }
        return acc;
      }, {}),
      seconds: Math.round(seconds * 100) / 100,
      lookups_per_second: Math.round(total / seconds),
      overhead_ms: stats(samples.map((s) => Math.max(0, s.roundTrip - s.webhook))),
      webhook_ms: stats(samples.map((s) => s.webhook)),
      round_trip_ms: stats(samples.map((s) => s.roundTrip)),
    };
  };

  await phase(100, 10); // warm-up: JIT, connection pools, keep-alive sockets (and the worker's boot)
  waitMs = 30_000;
  // Jobs in this process: count what they read from the database (the worker is another process).
  const stopCounting = redisUrl ? null : countReadStatements(app.get(DataSource));
  const sequential = await phase(SEQUENTIAL, 1);
  const concurrent = await phase(CONCURRENT_TOTAL, IN_FLIGHT);
  const reads = stopCounting?.();

  const report = {
    mode,
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    note: redisUrl
      ? 'producer + API in one process, worker (src/worker.ts) in another, webhook in a third, Bull on local Redis'
      : 'producer and service (jobs in-process) in one process, webhook in another',
    sequential,
    concurrent,
    database_reads_per_lookup: reads === undefined ? null : reads / (SEQUENTIAL + CONCURRENT_TOTAL),
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    join('bench/results', `lookup-${mode}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  writeSummary();
  console.log(JSON.stringify(report, null, 2));

  if (redisUrl) await client.close();
  await app.close();
  webhook.child.kill();
  if (worker) {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  if (!process.env.DATABASE_URL) rmSync(sqliteDir, { recursive: true, force: true });
}

type Report = {
  mode: string;
  date: string;
  machine: string;
  note: string;
  sequential: Phase;
  concurrent: Phase;
};

function writeSummary(): void {
  const reports = readdirSync('bench/results')
    // lookup-scale-*.json are bench:lookups' reports, of another shape.
    .filter((f) => /^lookup-.*\.json$/.test(f) && !f.startsWith('lookup-scale-'))
    .map((f) => JSON.parse(readFileSync(join('bench/results', f), 'utf8')) as Report)
    .sort((a, b) => a.mode.localeCompare(b.mode));
  const row = (r: Report, name: string, p: Phase) =>
    `| ${r.mode} | ${name} | ${p.lookups} | ${p.in_flight} | **${p.overhead_ms.p50}** | **${p.overhead_ms.p99}** | ${p.webhook_ms.p50} / ${p.webhook_ms.p99} | ${p.round_trip_ms.p50} / ${p.round_trip_ms.p99} | **${p.lookups_per_second}** | ${p.errors} |`;
  const lines = [
    '# Inbound context lookup: job round trip minus webhook latency',
    '',
    'Generated by `npm run bench:lookup` (bench/lookup-bench.ts). The webhook is a local HTTP server answering at once',
    'with a three-key `context`. *Overhead* = time from `lookup()` to its result, as the producer sees it, minus the',
    'webhook round trip the service measured (`latency_ms`): queueing, mapping/assistant/strategy reads, the',
    'activity-log insert, prompt rendering and the result travelling back. Milliseconds.',
    '',
    '| mode | phase | lookups | in flight | overhead p50 | overhead p99 | webhook p50 / p99 | round trip p50 / p99 | lookups/s | errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...reports.flatMap((r) => [
      row(r, 'sequential', r.sequential),
      row(r, 'concurrent', r.concurrent),
    ]),
    '',
    ...reports.map((r) => `- ${r.mode}: ${r.date}, ${r.machine}; ${r.note}.`),
    '',
  ];
  writeFileSync('bench/results/lookup.md', lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
