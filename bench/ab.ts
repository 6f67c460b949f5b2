/**
 * `npm run bench:ab -- <dist-before> <dist-after> [path]`: one request-path change, before and after, in
 * ONE run. Starts both builds of the service side by side (same MySQL database and Redis, role `api`,
 * logging at `info`, rate limiting on with a budget too large to be reached) and loads `path` (default
 * `/auth/check-key`; the key's user owns 40 seeded assistants and `:assistant_id` in it is replaced by the first, e.g.
 * `/assistant/details/:assistant_id`) on each in turn, before/after/before/after…, so both see the same machine. Prints
 * req/s and p99 per round and the after/before ratio of the summed req/s, and per round the server's CPU
 * µs per request (from /proc) and the Redis commands per request (a count that holds under load).
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench_ab, dropped and recreated),
 * BENCH_REDIS_URL, BENCH_SECONDS (5 per round), BENCH_ROUNDS (3), BENCH_CONNECTIONS (20), BENCH_PORT (3120:
 * before; +1 after).
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { commandsText, startCounting, type PerJobCounts } from './counters';
import {
  createBenchKey,
  load,
  machine,
  resetDatabase,
  round,
  seedAssistants,
  startProcess,
  type HttpResult,
  type Server,
} from './lib';

const [before, after, path = '/auth/check-key'] = process.argv.slice(2);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_ab';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = 'bench-admin-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3120);

function start(dist: string, port: number): Promise<Server> {
  return startProcess(
    [join(dist, 'main.js')],
    {
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL,
      SECRETS_ENCRYPTION_KEY:
        process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
      REDIS_URL,
      QUEUE_PREFIX: `vac-bench-ab-${port}`,
      ADMIN_API_KEY: ADMIN,
      APP_ROLE: 'api',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
    },
    `http://127.0.0.1:${port}/health`,
  );
}

async function main(): Promise<void> {
  if (!before || !after)
    throw new Error('usage: npm run bench:ab -- <dist-before> <dist-after> [path]');
  console.log(`bench:ab: ${machine()}; ${path}; before ${before}, after ${after}`);
  await resetDatabase(DATABASE_URL);
  const a = await start(before, PORT); // applies the migrations first
  const b = await start(after, PORT + 1);
  try {
    const key = await createBenchKey(a.url, ADMIN);
    // The key's user owns 40 seeded assistants (3 tools attached each), as in `npm run bench`, so
    // `/assistant/list` has pages to read; `:assistant_id` in the path stands for the first.
    const [first] = await seedAssistants(a.url, key);
    // The second build serves a write too, so both measured processes have the state a write leaves
    // (AsyncLocalStorage's promise hooks on, a transaction's connection warmed).
    await createBenchKey(b.url, ADMIN);
    const target = path.replace(':assistant_id', first);
    const opts = {
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { Authorization: `Bearer ${key}` },
    };
    const sums = { before: 0, after: 0 };
    const cpu: Record<'before' | 'after', number[]> = { before: [], after: [] };
    for (let i = 0; i < ROUNDS; i++) {
      // Each round the other build goes first, so a drift of the machine's speed reaches both alike.
      const pair = [['before', a] as const, ['after', b] as const];
      for (const [name, server] of i % 2 ? pair.reverse() : pair) {
        let stop: Awaited<ReturnType<typeof startCounting>> | undefined;
        let counts: PerJobCounts | undefined;
        const r: HttpResult = await load(
          `${name} round ${i + 1}`,
          { ...opts, url: `${server.url}${target}` },
          server.child.pid,
          {
            before: async () => {
              stop = await startCounting({ server: [server.child.pid ?? 0] }, REDIS_URL, []);
            },
            after: async (requests) => {
              counts = await stop?.(requests);
            },
          },
        );
        if (r.errors + r.non2xx > 0)
          throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
        sums[name] += r.reqPerSec;
        cpu[name].push(counts?.cpuUs.server ?? Number.NaN);
        console.log(
          `${name} round ${i + 1}: server CPU ${counts?.cpuUs.server} µs per request, Redis commands ${commandsText(counts?.redis ?? undefined)}`,
        );
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    console.log(
      `after/before: ${round(sums.after / sums.before, 3)} (req/s summed over ${ROUNDS} rounds each); ` +
        `server CPU µs per request, median: before ${median(cpu.before)} [${cpu.before.join(', ')}], ` +
        `after ${median(cpu.after)} [${cpu.after.join(', ')}], after/before ${round(median(cpu.after) / median(cpu.before), 3)}`,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
