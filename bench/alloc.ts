/**
 * `npm run bench:alloc -- <dist> [<dist> ...] [--path <path>] [--requests <n>]`: what one request
 * allocates in the built service, in bytes, by package: a count that ranks two builds of the request
 * path however loaded the machine is (the garbage collector's work follows it). For each build in
 * turn: the service (`node <dist>/main.js`, role `api`, MySQL + Redis, logging at `info`, rate limiting
 * on), a key whose user owns 40 seeded assistants, 3,000 requests to warm up, then `--requests`
 * (10,000) requests of `--path` (default `/auth/check-key`; `:assistant_id` stands for the first
 * assistant) under V8's sampling heap profiler (bench/heap-sampling.ts, preloaded), 20 in flight.
 * Prints bytes per request and its largest packages, and the CPU µs per request (from /proc).
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench_alloc, dropped and recreated),
 * BENCH_REDIS_URL, BENCH_PORT (3130).
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { preload } from './counters';
import { createBenchKey, resetDatabase, seedAssistants, startProcess } from './lib';
import { cpuSnapshot } from './process-cpu';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench_alloc';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = Number(process.env.BENCH_PORT ?? 3130);
const ADMIN = 'bench-admin-key-0123456789abcdef';
const HEAP_SAMPLING = preload('heap-sampling');

interface ProfileNode {
  callFrame: { url: string };
  selfSize: number;
  children: ProfileNode[];
}

/** A profile's bytes by package (`node:` for Node's own, `app` for the build), largest first. */
function byPackage(root: ProfileNode): [string, number][] {
  const out = new Map<string, number>();
  const walk = (node: ProfileNode) => {
    const url = node.callFrame.url;
    const tail = url.split('node_modules/').pop() ?? '';
    const key = url.includes('node_modules/')
      ? tail
          .split('/')
          .slice(0, tail.startsWith('@') ? 2 : 1)
          .join('/')
      : url.startsWith('node:')
        ? 'node:'
        : url
          ? 'app'
          : '(native)';
    out.set(key, (out.get(key) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(root);
  return [...out].sort((a, b) => b[1] - a[1]);
}

async function measure(dist: string, path: string, requests: number): Promise<void> {
  await resetDatabase(DATABASE_URL);
  const out = join(mkdtempSync(join(tmpdir(), 'bench-alloc-')), 'heap.json');
  const service = await startProcess(
    [...HEAP_SAMPLING, join(dist, 'main.js')],
    {
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATABASE_URL,
      SECRETS_ENCRYPTION_KEY:
        process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
      REDIS_URL,
      QUEUE_PREFIX: `vac-bench-alloc-${Date.now()}`,
      ADMIN_API_KEY: ADMIN,
      APP_ROLE: 'api',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
      HEAP_SAMPLES_OUT: out,
    },
    `http://127.0.0.1:${PORT}/health`,
  );
  let cpuUs = Number.NaN;
  try {
    const key = await createBenchKey(service.url, ADMIN);
    const [first] = await seedAssistants(service.url, key);
    const opts = {
      url: `${service.url}${path.replace(':assistant_id', first)}`,
      connections: 20,
      headers: { Authorization: `Bearer ${key}` },
    };
    await autocannon({ ...opts, amount: 3000 });
    service.child.kill('SIGWINCH');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pid = { service: [service.child.pid ?? 0] };
    const before = cpuSnapshot(pid);
    const result = await autocannon({ ...opts, amount: requests });
    if (result.non2xx + result.errors > 0) throw new Error(`${dist}: ${result.non2xx} non-2xx`);
    cpuUs = Math.round(((cpuSnapshot(pid).service - before.service) * 1000) / requests);
  } finally {
    await service.stop();
  }
  const profile = JSON.parse(readFileSync(out, 'utf8')) as { head: ProfileNode };
  const packages = byPackage(profile.head);
  const total = packages.reduce((a, [, bytes]) => a + bytes, 0);
  const top = packages
    .slice(0, 8)
    .map(([name, bytes]) => `${name} ${Math.round(bytes / requests)}`)
    .join(', ');
  console.log(
    `${dist} ${path}: ${Math.round(total / requests)} bytes allocated per request (${top}); CPU ${cpuUs} µs per request`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const at = args.indexOf(name);
    return at < 0 ? fallback : args.splice(at, 2)[1];
  };
  const path = option('--path', '/auth/check-key');
  const requests = Number(option('--requests', '10000'));
  if (!args.length) throw new Error('usage: npm run bench:alloc -- <dist> [<dist> ...] [--path p]');
  for (const dist of args) await measure(dist, path, requests);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
