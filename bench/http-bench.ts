/**
 * `npm run bench:http`: the HTTP request path against its ceilings, in ONE run on one machine.
 *
 * Measures a bare `node:http` route and a bare NestJS + Express route (each in its own process), then
 * `GET /auth/check-key`, `GET /assistant/details/:id` and `GET /assistant/list?limit=20` on the built
 * service (`node dist/main.js`, run `npm run build` first) with MySQL + Redis, role `all`, request
 * logging on at `info` (stdout discarded) and rate limiting ON (a budget too large to be reached, so
 * every request is counted in Redis). Replaces the "HTTP routes" section of docs/benchmarks.md.
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_http_bench, dropped and recreated),
 * BENCH_REDIS_URL, BENCH_SECONDS (8), BENCH_CONNECTIONS (20), BENCH_CPU_PROF=<dir> writes CPU profiles.
 */
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_http_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `vac-http-bench-${Date.now()}`;
const ADMIN = 'bench-admin-key-0123456789abcdef';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGETS: Record<string, number> = { check: 60, details: 40, list: 30 };

/** `node <args>` in its own process with PORT set, once `readyPath` answers 200. */
function start(args: string[], port: number, env: NodeJS.ProcessEnv, readyPath: string): Promise<Server> {
  return startProcess(args, { ...env, PORT: String(port) }, `http://127.0.0.1:${port}${readyPath}`);
}

async function main(): Promise<void> {
  if (!existsSync('dist/main.js')) throw new Error('dist/main.js not found: run `npm run build` first');
  const date = new Date().toISOString();
  console.log(`bench:http: ${machine()}`);
  await resetDatabase(DATABASE_URL);

  const nodeHttp = await start(['-r', 'ts-node/register/transpile-only', 'bench/ceiling-node-http.ts'], 3110, {}, '/ping');
  const nest = await start(['-r', 'ts-node/register/transpile-only', 'bench/ceiling-app.ts'], 3111, {}, '/ping');
  const service = await start(
    ['dist/main.js'],
    3112,
    {
      NODE_ENV: 'production',
      DATABASE_URL,
      SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
      REDIS_URL,
      QUEUE_PREFIX: PREFIX,
      ADMIN_API_KEY: ADMIN,
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
    },
    '/health',
  );
  const results: Record<string, HttpResult> = {};
  try {
    const key = await createBenchKey(service.url, ADMIN);
    const [first] = await seedAssistants(service.url, key);

    const headers = { Authorization: `Bearer ${key}` };
    const base = { connections: CONNECTIONS, duration: DURATION, headers };
    results.nodeHttp = await load('bare node:http route', { ...base, url: `${nodeHttp.url}/ping` }, nodeHttp.child.pid);
    results.nest = await load('bare NestJS + Express route', { ...base, url: `${nest.url}/ping` }, nest.child.pid);
    results.check = await load('GET /auth/check-key', { ...base, url: `${service.url}/auth/check-key` }, service.child.pid);
    results.details = await load('GET /assistant/details/:id', { ...base, url: `${service.url}/assistant/details/${first}` }, service.child.pid);
    results.list = await load('GET /assistant/list?limit=20', { ...base, url: `${service.url}/assistant/list?limit=20` }, service.child.pid);
  } finally {
    await Promise.all([nodeHttp.stop(), nest.stop(), service.stop()]);
  }
  writeSection(date, results);
}

function writeSection(date: string, r: Record<string, HttpResult>): void {
  const nest = r.nest.reqPerSec;
  const node = r.nodeHttp.reqPerSec;
  const row = (id: string) => {
    const x = r[id];
    const target = TARGETS[id] ? `≥ ${TARGETS[id]}%` : '';
    return `| ${x.name} | ${x.reqPerSec.toLocaleString('en')} | ${x.p50} | ${x.p99} | ${x.rssMb} | ${round((x.reqPerSec / nest) * 100, 0)}% | ${target} | ${round((x.reqPerSec / node) * 100, 0)}% | ${x.errors + x.non2xx} |`;
  };
  const section = `## HTTP routes

Last run: ${date}, ${machine()}. Command: \`npm run build && npm run bench:http\` (autocannon,
${CONNECTIONS} connections, ${DURATION} s per route after a 2 s warm-up). The service is the built
\`node dist/main.js\` on MySQL (MariaDB here) + Redis, role \`all\`, request logging on at \`info\`
(stdout discarded), rate limiting on (every request counted in Redis). Each ceiling runs in its own
process. Server, database, Redis and load generator share the machine's cores, so compare the ratios,
which are taken in this one run.

| route | req/s | p50 ms | p99 ms | RSS MB | of bare Nest | target | of node:http | errors |
|---|---|---|---|---|---|---|---|---|
${['nodeHttp', 'nest', 'check', 'details', 'list'].map(row).join('\n')}
`;
  const file = 'docs/benchmarks.md';
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf('## HTTP routes');
  let next: string;
  if (start < 0) next = `${current.trimEnd()}\n\n${section}`;
  else {
    const end = current.indexOf('\n## ', start + 3);
    next = current.slice(0, start) + section + (end < 0 ? '' : `\n${current.slice(end + 1)}`);
  }
  writeFileSync(file, next);
  console.log(section);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
