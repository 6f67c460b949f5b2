/**
 * `npm run bench:lookups`: the lookup figures of the "Performance" targets, in one run, on one Redis
 * server and on a three-master Redis Cluster (started here with scripts/redis-cluster.sh on ports
 * BENCH_CLUSTER_PORTS, default "7111 7112 7113", stopped at the end). On each, with the same
 * producer (bench/lookups-drive.ts) and the same webhook process answering at once:
 *
 * 1. a no-op Bull job: bench/noop-worker.ts, a worker process whose handler returns at once;
 * 2. the built service with APP_ROLE=api and a separate `node <dist>/worker.js` process;
 * 3. the built service with role `all` (API and jobs in one process);
 * 4. the no-op job again (the machine's load drifts; the report takes the mean of both).
 *
 * Each: a warm-up, then BENCH_PACED_RATE (200)/s paced for BENCH_PACED_SECONDS (10) s, then
 * BENCH_JOBS (6000) jobs with BENCH_IN_FLIGHT (200) in flight. The process consuming the lookups runs
 * with bench/count-sql.ts preloaded (as JavaScript), which counts the statements it sends to MySQL; the count is read
 * over IPC before and after the measured phases.
 *
 * Needs MySQL, Redis, `redis-server` for the cluster, and a build (`npm run build`; BENCH_DIST).
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench_lookups, dropped and recreated
 * per target), BENCH_REDIS_URL, BENCH_TARGETS (redis,cluster), BENCH_PORT (3120: API; the no-op
 * worker serves none), BENCH_WARMUP (300), BENCH_SCENARIOS (parts of names separated by `|`: only
 * the scenarios whose names have one). Writes bench/results/lookup-scale-<target>.json and
 * bench/results/lookup-scale.md. The keys a run made on the Redis server are removed at its end.
 */
import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RedisTarget } from '../src/config/redis-target';
import { drive, PRODUCER_NOTE, type DriveSettings } from './lookups-drive';
import { countSqlPreload, sqlCounts, type SqlCount } from './counters';
import { CLUSTER_PORTS, forgetKeys, redisEnv, startCluster } from './lookups-redis';
import { writeLookupScaleReport, type Scenario, type TargetReport } from './lookups-report';
import { seedMapping } from './seed-mapping';
import { mysqlPid, redisPids, type ProcessSet } from './process-cpu';
import {
  createBenchKey,
  machine,
  resetDatabase,
  rssMb,
  seedAssistants,
  startProcess,
  startWebhook,
  type Server,
} from './lib';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_lookups';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DIST = process.env.BENCH_DIST ?? 'dist';
const PORT = Number(process.env.BENCH_PORT ?? 3120);
const ADMIN = 'bench-admin-key-0123456789abcdef';
const SETTINGS: DriveSettings = {
  warmup: Number(process.env.BENCH_WARMUP ?? 300),
  pacedRate: Number(process.env.BENCH_PACED_RATE ?? 200),
  pacedSeconds: Number(process.env.BENCH_PACED_SECONDS ?? 10),
  jobs: Number(process.env.BENCH_JOBS ?? 6000),
  inFlight: Number(process.env.BENCH_IN_FLIGHT ?? 200),
};
const TS = ['-r', 'ts-node/register/transpile-only'];
const COUNT_SQL = countSqlPreload();

/**
 * BENCH_SCENARIOS: parts of scenario names separated by `|` (names hold commas), e.g.
 * "no-op|worker, LOOKUP": only the scenarios whose name has one.
 */
const SCENARIO_FILTER = (process.env.BENCH_SCENARIOS ?? '')
  .split('|')
  .map((w) => w.trim())
  .filter(Boolean);
const wanted = (name: Scenario['name']) =>
  !SCENARIO_FILTER.length || SCENARIO_FILTER.some((w) => name.includes(w));

/**
 * BENCH_WORKERS (default "1"): the worker processes of the API + worker scenarios, a list of counts
 * ("1,2": each scenario with one worker, then with two).
 */
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);

function serviceEnv(
  role: 'all' | 'api' | 'worker',
  target: RedisTarget,
  prefix: string,
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    PORT: String(role === 'worker' ? PORT + 1 : PORT),
    DATABASE_URL,
    SECRETS_ENCRYPTION_KEY:
      process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
    ...redisEnv(target),
    QUEUE_PREFIX: prefix,
    ADMIN_API_KEY: ADMIN,
    APP_ROLE: role,
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
  };
}

/** A user, an assistant, a webhook strategy and a mapping, through the API; the mapping's id. */
async function seed(url: string, webhookUrl: string): Promise<string> {
  const key = await createBenchKey(url, ADMIN);
  const [assistantId] = await seedAssistants(url, key, 1);
  return seedMapping(url, key, assistantId, webhookUrl);
}

/**
 * Drives the processes consuming the jobs (all of `procs` but an API first among several), counting
 * their statements when `counted`, then stops every process given.
 */
async function measure(
  name: Scenario['name'],
  target: RedisTarget,
  prefix: string,
  inboundId: string,
  procs: Server[],
  counted: boolean,
  shared: ProcessSet,
): Promise<Scenario> {
  const consumers = procs.length > 1 ? procs.slice(1) : procs;
  const consumerName = name.startsWith('role all')
    ? 'service'
    : name.startsWith('no-op')
      ? 'no-op worker'
      : 'worker';
  const named = (i: number) => (consumers.length > 1 ? `${consumerName} ${i + 1}` : consumerName);
  const processes: ProcessSet = {
    ...Object.fromEntries(consumers.map((c, i) => [named(i), [c.child.pid ?? 0]])),
    ...(procs.length > 1 ? { api: [procs[0].child.pid ?? 0] } : {}),
    ...shared,
  };
  let before: SqlCount = { total: 0, logWrites: 0, roundTrips: 0, gcMs: 0, scavenges: 0 };
  let after = before;
  try {
    const died = new Promise<never>((_, reject) => {
      for (const c of consumers)
        c.child.once('exit', (code) => reject(new Error(`${name}: exited with ${code}`)));
    });
    died.catch(() => undefined); // it exits when stopped, too
    const figures = await Promise.race([
      died,
      drive(
        target,
        prefix,
        inboundId,
        SETTINGS,
        {
          before: async () => {
            if (counted) before = await sqlCounts(consumers);
          },
          after: async () => {
            if (counted) after = await sqlCounts(consumers);
          },
        },
        processes,
      ),
    ]);
    const scenario: Scenario = {
      name,
      figures,
      sql: counted
        ? {
            total: after.total - before.total,
            logWrites: after.logWrites - before.logWrites,
            roundTrips: after.roundTrips - before.roundTrips,
          }
        : null,
      rssMb: procs.map((p) => rssMb(p.child.pid)),
    };
    console.log(JSON.stringify(scenario));
    return scenario;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

async function benchTarget(
  kind: 'redis' | 'cluster',
  target: RedisTarget,
  webhook: { url: string; pid: number },
): Promise<TargetReport> {
  await resetDatabase(DATABASE_URL);
  const webhookUrl = webhook.url;
  const shared: ProcessSet = {
    webhook: [webhook.pid],
    redis: await redisPids(target),
    mysql: await mysqlPid(DATABASE_URL),
  };
  const prefix = `vac-bench-${kind}-${Date.now()}`;
  const noopPrefix = `${prefix}-noop`;
  const health = `http://127.0.0.1:${PORT}/health`;
  const noop = async (name: Scenario['name']) => {
    const env = { ...redisEnv(target), QUEUE_PREFIX: noopPrefix };
    const proc = await startProcess([...TS, 'bench/noop-worker.ts'], env);
    return measure(name, target, noopPrefix, '', [proc], false, shared);
  };
  const scenarios: Scenario[] = [];
  if (wanted('no-op Bull job')) scenarios.push(await noop('no-op Bull job'));

  // API + worker (with each count of workers), then role `all`; the mapping is seeded by the first API.
  let inboundId = '';
  for (const workers of WORKER_COUNTS) {
    const apiWorker: Scenario['name'] =
      workers === 1 ? 'APP_ROLE=api + worker' : `APP_ROLE=api + ${workers} workers`;
    if (!wanted(apiWorker)) continue;
    const apiServer = await startProcess(
      [join(DIST, 'main.js')],
      serviceEnv('api', target, prefix),
      health,
    );
    inboundId ||= await seed(apiServer.url, webhookUrl);
    const started = await Promise.all(
      Array.from({ length: workers }, () =>
        startProcess([...COUNT_SQL, join(DIST, 'worker.js')], serviceEnv('worker', target, prefix)),
      ),
    );
    const procs = [apiServer, ...started];
    scenarios.push(await measure(apiWorker, target, prefix, inboundId, procs, true, shared));
  }
  if (wanted('role all')) {
    const service = await startProcess(
      [...COUNT_SQL, join(DIST, 'main.js')],
      serviceEnv('all', target, prefix),
      health,
    );
    inboundId ||= await seed(service.url, webhookUrl);
    scenarios.push(await measure('role all', target, prefix, inboundId, [service], true, shared));
  }
  if (wanted('no-op Bull job, again')) scenarios.push(await noop('no-op Bull job, again'));
  if (target.kind === 'node') await forgetKeys(target.url, prefix);
  const redis = target.kind === 'node' ? target.url : `cluster ${CLUSTER_PORTS}`;
  const date = new Date().toISOString();
  return {
    target: kind,
    redis,
    date,
    machine: machine(),
    settings: SETTINGS,
    producer: PRODUCER_NOTE,
    scenarios,
  };
}

/** The command as run, with the settings that change which scenarios run. */
const COMMAND = `npm run build && ${['BENCH_WORKERS', 'BENCH_SCENARIOS']
  .filter((name) => process.env[name])
  .map((name) => `${name}='${process.env[name]}' `)
  .join('')}npm run bench:lookups`;

async function main(): Promise<void> {
  for (const entry of ['main.js', 'worker.js'])
    if (!existsSync(join(DIST, entry)))
      throw new Error(
        `${join(DIST, entry)} not found: run \`npm run build\` first (or set BENCH_DIST)`,
      );
  mkdirSync('bench/results', { recursive: true });
  const kinds = (process.env.BENCH_TARGETS ?? 'redis,cluster').split(',').map((k) => k.trim());
  const webhook = await startWebhook();
  try {
    for (const kind of kinds) {
      if (kind !== 'redis' && kind !== 'cluster') throw new Error(`BENCH_TARGETS: unknown ${kind}`);
      const cluster = kind === 'cluster' ? startCluster() : null;
      try {
        const target: RedisTarget = cluster?.target ?? { kind: 'node', url: REDIS_URL };
        const report = await benchTarget(kind, target, {
          url: webhook.url,
          pid: webhook.child.pid ?? 0,
        });
        console.log(writeLookupScaleReport(report, COMMAND));
      } finally {
        cluster?.stop();
      }
    }
  } finally {
    webhook.child.kill();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
