/**
 * `npm run bench`: the performance targets, in ONE run on one machine, each figure a ratio to a
 * ceiling measured in the same run (docs/benchmarks.md). Needs MySQL, Redis and a build
 * (`npm run build`; BENCH_DIST points at another build directory).
 *
 * Ceilings, each in its own process: a bare NestJS + Express route (bench/ceiling-app.ts) and a bare
 * lookup worker (bench/lookup-ceiling.ts). The service: the built `node <dist>/main.js` on MySQL +
 * Redis, request logging on at `info` (stdout discarded), rate limiting ON with a budget of
 * 1,000,000 a minute (every request counted in Redis, none refused), durable writes; each service
 * process preloaded with bench/count-sql.ts (its MySQL statements, counted).
 * 1. HTTP (bench/http-phase.ts): the bare route, check-key, details, list, the bare route again.
 * 2. Lookups (bench/lookup-phase.ts): the bare worker, role `all`, API + worker, the bare worker again.
 * Report: bench/results/bench.md and .json, and docs/benchmarks.md between its markers.
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench, dropped and recreated),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379: give your own), BENCH_PORT (3110: the bare route;
 * +1 the service, +2 the worker), BENCH_SECONDS (8), BENCH_CONNECTIONS (20), BENCH_JOBS (6000),
 * BENCH_IN_FLIGHT (200), BENCH_WARMUP (300), BENCH_PACED_SECONDS (10), BENCH_ONLY=http | lookups |
 * render | idempotency | routing (the last three: bench/results/render.md, idempotency.md,
 * routing-scale.md; routing: bench/routing-scale-bench.ts), BENCH_CPU_PROF=<dir>
 * (CPU profiles of every process started).
 */
import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { writeBenchReport, type BenchReport } from './bench-report';
import { countSqlPreload } from './counters';
import { httpPhase } from './http-phase';
import { benchIdempotency, writeIdempotencyReport } from './idempotency-bench';
import {
  createBenchKey,
  load,
  machine,
  resetDatabase,
  seedAssistants,
  SEED_PROMPT,
  SEED_START_INSTRUCTION,
  startProcess,
  startWebhook,
  type Server,
} from './lib';
import { lookupPhase, type LookupSettings } from './lookup-phase';
import { forgetKeys } from './lookups-redis';
import { mysqlPid, redisPids } from './process-cpu';
import { benchRender, writeRenderReport } from './render-bench';
import { benchRoutingScale } from './routing-scale-bench';
import { seedMapping } from './seed-mapping';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DIST = process.env.BENCH_DIST ?? 'dist';
const PORT = Number(process.env.BENCH_PORT ?? 3110);
const ADMIN = 'bench-admin-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ONLY = process.env.BENCH_ONLY ?? '';
const LOOKUPS: LookupSettings = {
  warmup: Number(process.env.BENCH_WARMUP ?? 300),
  jobs: Number(process.env.BENCH_JOBS ?? 6000),
  inFlight: Number(process.env.BENCH_IN_FLIGHT ?? 200),
  pacedSeconds: Number(process.env.BENCH_PACED_SECONDS ?? 10),
};
const TS = ['-r', 'ts-node/register/transpile-only'];
const COUNT_SQL = countSqlPreload();
const COMMAND = `npm run build && ${ONLY ? `BENCH_ONLY=${ONLY} ` : ''}npm run bench`;

function serviceEnv(role: 'all' | 'api' | 'worker', prefix: string): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    PORT: String(role === 'worker' ? PORT + 2 : PORT + 1),
    DATABASE_URL,
    SECRETS_ENCRYPTION_KEY:
      process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
    REDIS_URL,
    REDIS_CLUSTER_NODES: '',
    QUEUE_PREFIX: prefix,
    ADMIN_API_KEY: ADMIN,
    APP_ROLE: role,
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
  };
}

/** What the bare lookup worker reads per job: the endpoint and the templates the service's mapping has. */
async function setBareRoute(barePrefix: string, webhookUrl: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const route = {
      url: webhookUrl,
      prompt: SEED_PROMPT,
      start_instruction: SEED_START_INSTRUCTION,
    };
    await redis.set(`${barePrefix}:bare-lookup:route`, JSON.stringify(route));
  } finally {
    redis.disconnect();
  }
}

/** `BENCH_ONLY=render` or `idempotency`: that part alone, in its own report. */
async function benchOther(nest: Server, service: Server, key: string): Promise<void> {
  const base = {
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { Authorization: `Bearer ${key}` },
  };
  const date = new Date().toISOString();
  const settings = { connections: CONNECTIONS, seconds: SECONDS };
  if (ONLY === 'idempotency')
    return writeIdempotencyReport(date, await benchIdempotency(service, base), settings);
  const ceiling = await load(
    'bare NestJS + Express route',
    { ...base, url: `${nest.url}/ping` },
    nest.child.pid,
  );
  writeRenderReport(date, await benchRender(service, key, base), ceiling, settings);
}

async function main(): Promise<void> {
  for (const entry of ['main.js', 'worker.js'])
    if (!existsSync(join(DIST, entry)))
      throw new Error(
        `${join(DIST, entry)} not found: run \`npm run build\` first (or set BENCH_DIST)`,
      );
  mkdirSync('bench/results', { recursive: true });
  const date = new Date().toISOString();
  const prefix = `vac-bench-${Date.now()}`;
  const barePrefix = `${prefix}-bare`;
  console.log(`bench: ${machine()}`);
  await resetDatabase(DATABASE_URL);
  const started: Server[] = [];
  const run = async (args: string[], env: NodeJS.ProcessEnv, readyUrl?: string) => {
    const proc = await startProcess(args, env, readyUrl);
    started.push(proc);
    return proc;
  };
  const health = `http://127.0.0.1:${PORT + 1}/health`;
  const webhook = await startWebhook();
  const shared = {
    redis: await redisPids({ kind: 'node', url: REDIS_URL }),
    mysql: await mysqlPid(DATABASE_URL),
  };
  const report: BenchReport = {
    date,
    machine: machine(),
    command: COMMAND,
    http: null,
    lookups: [],
    settings: { connections: CONNECTIONS, seconds: SECONDS, lookups: LOOKUPS },
  };
  try {
    if (ONLY === 'routing')
      return await benchRoutingScale({
        databaseUrl: DATABASE_URL,
        redisUrl: REDIS_URL,
        prefix,
        adminKey: ADMIN,
        webhookUrl: webhook.url,
        start: () => run([join(DIST, 'main.js')], serviceEnv('all', prefix), health),
      });
    const nest = await run(
      [...TS, 'bench/ceiling-app.ts'],
      { PORT: String(PORT) },
      `http://127.0.0.1:${PORT}/ping`,
    );
    const service = await run(
      [...COUNT_SQL, join(DIST, 'main.js')],
      serviceEnv('all', prefix),
      health,
    );
    const key = await createBenchKey(service.url, ADMIN);
    if (ONLY === 'render' || ONLY === 'idempotency') return await benchOther(nest, service, key);
    const [first] = await seedAssistants(service.url, key);
    if (ONLY !== 'lookups') {
      const setup = { nest, service, key, assistantId: first, redisUrl: REDIS_URL, shared };
      report.http = await httpPhase({ ...setup, connections: CONNECTIONS, seconds: SECONDS });
    }
    await nest.stop();
    if (ONLY !== 'http') {
      const inboundId = await seedMapping(service.url, key, first, webhook.url);
      await setBareRoute(barePrefix, webhook.url);
      report.lookups = await lookupPhase({
        target: { kind: 'node', url: REDIS_URL },
        settings: LOOKUPS,
        shared: { webhook: [webhook.child.pid ?? 0], ...shared },
        barePrefix,
        servicePrefix: prefix,
        inboundId,
        service,
        startBare: (client) =>
          run([...TS, 'bench/lookup-ceiling.ts'], {
            REDIS_URL,
            QUEUE_PREFIX: barePrefix,
            ...(client ? { BARE_CLIENT: client } : {}),
          }),
        startApiWorker: async () => [
          await run([...COUNT_SQL, join(DIST, 'main.js')], serviceEnv('api', prefix), health),
          await run([...COUNT_SQL, join(DIST, 'worker.js')], serviceEnv('worker', prefix)),
        ],
      });
    }
    console.log(writeBenchReport(report));
  } finally {
    await Promise.all(started.map((proc) => proc.stop()));
    webhook.child.kill();
    await forgetKeys(REDIS_URL, prefix);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
