/**
 * `npm run bench:ab-lookups -- <dist-a> <dist-b>`: lookups of two builds, or of one build under two
 * settings, in ONE run. Starts both side by side (role `all`, the same MySQL database and Redis,
 * each its own queue prefix, logging at `info`, durable commits, each preloaded with
 * bench/count-sql.ts), one number mapped through a webhook strategy to the local customer endpoint
 * of `npm run bench`, and drives each in turn, a/b/b/a…, through the plain `bull` producer of
 * bench/lookups-drive.ts: BENCH_JOBS lookups, BENCH_IN_FLIGHT in flight, per round. Prints per round
 * lookups/s, the service's CPU µs per lookup (from /proc), Redis commands and MySQL statements per
 * lookup; then b/a of the summed lookups/s and of the median CPU per lookup. BENCH_AB_RATE=<n> adds
 * per round a paced phase of n lookups a second (BENCH_PACED_SECONDS) and its p50 / p99.
 *
 * BENCH_AB_ENV_A / BENCH_AB_ENV_B: settings of each service, `NAME=value,NAME=value` (e.g.
 * `OWNER_MAX_IN_FLIGHT=20`). BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench_ab,
 * dropped and recreated), BENCH_REDIS_URL, BENCH_ROUNDS (3), BENCH_JOBS (3000), BENCH_IN_FLIGHT
 * (200), BENCH_WARMUP (200), BENCH_PORT (3130: a; +1 b), BENCH_CPU_PROF=<dir>.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { commandsText, countSqlPreload, startCounting, type PerJobCounts } from './counters';
import { openDriver, type Driver } from './lookups-drive';
import {
  createBenchKey,
  machine,
  resetDatabase,
  round,
  seedAssistants,
  startProcess,
  startWebhook,
  type Server,
} from './lib';
import { mysqlPid, redisPids, type ProcessSet } from './process-cpu';
import { forgetKeys } from './lookups-redis';
import { seedMapping } from './seed-mapping';

const [distA, distB] = process.argv.slice(2);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_ab';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = 'bench-admin-key-0123456789abcdef';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const JOBS = Number(process.env.BENCH_JOBS ?? 3000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const RATE = Number(process.env.BENCH_AB_RATE ?? 0);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3130);
const RUN = `vac-bench-abl-${Date.now()}`;

type Side = 'a' | 'b';

/** `NAME=value,NAME=value` as an environment. */
function settings(text: string | undefined): NodeJS.ProcessEnv {
  const pairs = (text ?? '').split(',').filter((p) => p.includes('='));
  return Object.fromEntries(
    pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
  );
}

function start(side: Side, dist: string, port: number): Promise<Server> {
  return startProcess(
    [...countSqlPreload(), join(dist, 'main.js')],
    {
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL,
      SECRETS_ENCRYPTION_KEY:
        process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
      REDIS_URL,
      REDIS_CLUSTER_NODES: '',
      QUEUE_PREFIX: `${RUN}-${side}`,
      ADMIN_API_KEY: ADMIN,
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'info',
      ...settings(process.env[side === 'a' ? 'BENCH_AB_ENV_A' : 'BENCH_AB_ENV_B']),
    },
    `http://127.0.0.1:${port}/health`,
  );
}

interface Round {
  perSecond: number;
  /** Answered with a successful lookup, of BENCH_JOBS. */
  ok: number;
  /** The others, by kind. */
  failures: Record<string, number>;
  counts: PerJobCounts;
  paced?: { p50: number; p99: number };
}

async function measure(driver: Driver, server: Server, shared: ProcessSet): Promise<Round> {
  const stop = await startCounting({ service: [server.child.pid ?? 0], ...shared }, REDIS_URL, [
    server,
  ]);
  const peak = await driver.throughput(JOBS, IN_FLIGHT);
  const counts = await stop(JOBS);
  const failures = { ...driver.failures };
  for (const kind of Object.keys(driver.failures)) delete driver.failures[kind];
  if (!RATE) return { perSecond: peak.perSecond, ok: peak.ok, failures, counts };
  const paced = await driver.paced(RATE, PACED_SECONDS);
  return {
    perSecond: peak.perSecond,
    ok: peak.ok,
    failures,
    counts,
    paced: { p50: paced.rtP50, p99: paced.rtP99 },
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

function line(side: Side, i: number, r: Round): string {
  const cpu = Object.entries(r.counts.cpuUs)
    .map(([name, us]) => `${name} ${us}`)
    .join(', ');
  const paced = r.paced ? `; paced ${RATE}/s p50 ${r.paced.p50} ms, p99 ${r.paced.p99} ms` : '';
  return (
    `${side} round ${i + 1}: ${round(r.perSecond, 0)} lookups/s, ${r.ok}/${JOBS} successful ${JSON.stringify(r.failures)}; CPU µs per lookup: ${cpu}; ` +
    `Redis ${commandsText(r.counts.redis ?? undefined)}; MySQL ${r.counts.sql?.statements} statements${paced}`
  );
}

async function main(): Promise<void> {
  if (!distA || !distB) throw new Error('usage: npm run bench:ab-lookups -- <dist-a> <dist-b>');
  console.log(
    `bench:ab-lookups: ${machine()}; a ${distA} ${process.env.BENCH_AB_ENV_A ?? ''}, b ${distB} ${process.env.BENCH_AB_ENV_B ?? ''}`,
  );
  await resetDatabase(DATABASE_URL);
  const webhook = await startWebhook();
  const servers: Partial<Record<Side, Server>> = {};
  try {
    servers.a = await start('a', distA, PORT); // applies the migrations first
    const key = await createBenchKey(servers.a.url, ADMIN);
    const [first] = await seedAssistants(servers.a.url, key, 1);
    const inboundId = await seedMapping(servers.a.url, key, first, webhook.url);
    servers.b = await start('b', distB, PORT + 1); // its start-up rebuild routes the number
    // b serves a write too: both processes then hold the state a write leaves (AsyncLocalStorage's
    // promise hooks on for good, a transaction's connection warmed), as a's seeding left it.
    await createBenchKey(servers.b.url, ADMIN);
    const shared: ProcessSet = {
      webhook: [webhook.child.pid ?? 0],
      redis: await redisPids({ kind: 'node', url: REDIS_URL }),
      mysql: await mysqlPid(DATABASE_URL),
    };
    const drivers: Record<Side, Driver> = {
      a: await openDriver({ kind: 'node', url: REDIS_URL }, `${RUN}-a`, inboundId),
      b: await openDriver({ kind: 'node', url: REDIS_URL }, `${RUN}-b`, inboundId),
    };
    for (const side of ['a', 'b'] as const) await drivers[side].warmUp(WARMUP);
    const rounds: Record<Side, Round[]> = { a: [], b: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const side of i % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const)) {
        const r = await measure(drivers[side], servers[side] as Server, shared);
        rounds[side].push(r);
        console.log(line(side, i, r));
      }
    }
    await Promise.all([drivers.a.close(), drivers.b.close()]);
    const sum = (s: Side) => rounds[s].reduce((t, r) => t + r.perSecond, 0);
    const cpu = (s: Side) => median(rounds[s].map((r) => r.counts.cpuUs.service));
    console.log(
      `b/a: lookups/s ${round(sum('b') / sum('a'), 3)} (summed over ${ROUNDS} rounds each); service CPU µs per ` +
        `lookup, median: a ${cpu('a')} [${rounds.a.map((r) => r.counts.cpuUs.service).join(', ')}], ` +
        `b ${cpu('b')} [${rounds.b.map((r) => r.counts.cpuUs.service).join(', ')}], b/a ${round(cpu('b') / cpu('a'), 3)}`,
    );
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    webhook.child.kill();
    await forgetKeys(REDIS_URL, RUN);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
