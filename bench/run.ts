/**
 * `npm run bench`: every figure of the performance table, in ONE run on one machine, as ratios to
 * ceilings measured in the same run. Needs MySQL and Redis and a build (`npm run build`; BENCH_DIST
 * points at another build directory). Writes docs/benchmarks.md (text below `<!-- analysis -->` is kept).
 *
 * 1. Ceilings, each in its own process: a bare `node:http` route and a bare NestJS + Express route.
 * 2. The built service (`node <dist>/main.js`, role `all`, request logging on at `info` with stdout
 *    discarded, rate limiting ON with a budget of 1,000,000 per minute so every request is counted in
 *    Redis but none is refused, durable writes): `GET /auth/check-key`, `GET /assistant/details/:id`,
 *    `GET /assistant/list?limit=20` under autocannon.
 * 3. Inbound context lookups through a plain `bull` producer (`queue.add(data)`, no options,
 *    `job.finished()`), against a webhook in its own process: 200/s paced for 10 s (overhead = round
 *    trip minus the webhook latency the service measured), then 3,000 jobs with 200 in flight. Once
 *    with role `all`, once with `APP_ROLE=api` + a separate `node <dist>/worker.js` process.
 * 4. Service RSS after each phase.
 * 5. `POST /assistant/render/:id` with the worst-case template (a prompt of 4,500 `{{context.blob}}`,
 *    a 60 KB value: 270 MB if rendering had no bound), every answer the 400 naming the limit; its
 *    latency beside the read routes' and the service RSS before and after it (flat: the render stops at
 *    MAX_RENDERED_PROMPT_BYTES). `BENCH_ONLY=render` measures this part alone and writes
 *    bench/results/render.md instead of docs/benchmarks.md.
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/vac_bench, dropped and recreated),
 * 6. `POST /assistant/create` without `Idempotency-Key`, with a new key on every request, and with one
 *    key replayed: the cost of the check. `BENCH_ONLY=idempotency` measures this part alone and writes
 *    bench/results/idempotency.md.
 *
 * BENCH_REDIS_URL, BENCH_SECONDS (8), BENCH_CONNECTIONS (20), BENCH_ONLY=http (skip lookups), lookups
 * (the plain and the split mapping, role all, in bench/results/lookups.md), render or idempotency,
 * BENCH_CPU_PROF=<dir> (CPU profiles of every process started).
 */
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import Bull from 'bull';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../src/contracts/queues';
import { timedLookup, type Sample } from './lookups-drive';
import {
  benchIdempotency,
  idempotencyTable,
  writeIdempotencyReport,
  type IdempotencyFigures,
} from './idempotency-bench';
import {
  api,
  createBenchKey,
  load,
  machine,
  percentile,
  resetDatabase,
  round,
  rssMb,
  seedAssistants,
  startProcess,
  startWebhook,
  type HttpResult,
  type Server,
} from './lib';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DIST = process.env.BENCH_DIST ?? 'dist';
const ADMIN = 'bench-admin-key-0123456789abcdef';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RATE_LIMIT = 1_000_000;
const PACED_RATE = 200;
const PACED_SECONDS = 10;
const JOBS = 3000;
const IN_FLIGHT = 200;
const HTTP_TARGETS: Record<string, number> = { check: 60, details: 40, list: 30 };

/** About the most placeholders a 100,000-character prompt holds, and a value the render route takes. */
const WORST_PROMPT = 'Hi {{context.blob}}. '.repeat(4_500);
const WORST_CONTEXT = { blob: 'v'.repeat(60_000) };

interface RenderFigures {
  result: HttpResult;
  rssBefore: number;
  rssAfter: number;
  /** The status every answer had (one request made before the load). */
  status: number;
}

/** The render route under load with the worst-case template: latency, and the RSS before and after. */
async function benchRender(
  service: Server,
  key: string,
  base: Omit<autocannon.Options, 'url'>,
): Promise<RenderFigures> {
  const { assistant_id } = await api<{ assistant_id: string }>(
    service.url,
    'POST',
    '/assistant/create',
    key,
    {
      assistant_name: 'Worst-case template',
      assistant_description: 'Benchmark',
      assistant_prompt: WORST_PROMPT,
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'voice-1' },
    },
  );
  const url = `${service.url}/assistant/render/${assistant_id}`;
  const body = JSON.stringify({ context: WORST_CONTEXT });
  const headers = { ...(base.headers ?? {}), 'Content-Type': 'application/json' };
  const probe = await fetch(url, { method: 'POST', headers, body });
  await probe.text();
  const rssBefore = rssMb(service.child.pid);
  const result = await load(
    'POST /assistant/render/:id, worst-case template',
    { ...base, url, method: 'POST', headers, body },
    service.child.pid,
  );
  return { result, rssBefore, rssAfter: rssMb(service.child.pid), status: probe.status };
}

interface LookupFigures {
  mode: string;
  pacedOk: number;
  pacedSent: number;
  overheadP50: number;
  overheadP99: number;
  roundTripP50: number;
  webhookP50: number;
  perSecond: number;
  ok: number;
  failures: Record<string, number>;
  serviceRss: number;
  workerRss: number | null;
}

/** Lookups the way any Bull producer sends them: `add(data)` with no options, then `finished()`. */
async function benchLookups(
  mode: string,
  prefix: string,
  inboundId: string,
  procs: { service: Server; worker?: Server },
  callers = 1,
): Promise<LookupFigures> {
  const queue = new Bull<InboundContextLookupJobData>(QUEUES.INBOUND_CONTEXT_LOOKUP, REDIS_URL, {
    prefix,
  });
  queue.setMaxListeners(0); // job.finished() listens for global events once per job in flight
  const failures: Record<string, number> = {};
  let seq = 0;
  const lookup = (waitMs = 30_000): Promise<Sample> => {
    seq += 1;
    return timedLookup(failures, async () => {
      const job = await queue.add({
        room_name: `bench-${mode}-${seq}`,
        inbound_id: inboundId,
        // A split mapping picks per caller: `callers` distinct numbers in turn.
        caller_number: `+9199${String(seq % callers).padStart(8, '0')}`,
      });
      let timer: NodeJS.Timeout | undefined;
      return (await Promise.race([
        job.finished(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), waitMs);
        }),
      ]).finally(() => clearTimeout(timer))) as InboundContextLookupResult;
    });
  };

  try {
    await queue.isReady();
    await lookup(120_000); // the first one waits for a worker process to boot
    for (let i = 0; i < 300; i++) await lookup();
    for (const key of Object.keys(failures)) delete failures[key];

    // Paced: each lookup starts on schedule, whatever the others do.
    const total = PACED_RATE * PACED_SECONDS;
    const started = performance.now();
    const pending: Promise<Sample>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / PACED_RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(lookup());
    }
    const paced = await Promise.all(pending);
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    const overhead = sorted(paced.filter((p) => p.ok).map((p) => Math.max(0, p.rt - p.webhook)));

    // Throughput: JOBS lookups, IN_FLIGHT at a time.
    let next = 0;
    let ok = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < JOBS) {
          next += 1;
          if ((await lookup()).ok) ok += 1;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const figures: LookupFigures = {
      mode,
      pacedOk: paced.filter((p) => p.ok).length,
      pacedSent: total,
      overheadP50: round(percentile(overhead, 50)),
      overheadP99: round(percentile(overhead, 99)),
      roundTripP50: round(percentile(sorted(paced.map((p) => p.rt)), 50)),
      webhookP50: round(percentile(sorted(paced.map((p) => p.webhook)), 50)),
      perSecond: Math.round(JOBS / seconds),
      ok,
      failures,
      serviceRss: rssMb(procs.service.child.pid),
      workerRss: procs.worker ? rssMb(procs.worker.child.pid) : null,
    };
    console.log(JSON.stringify(figures));
    return figures;
  } finally {
    await queue.close();
  }
}

/** Distinct caller numbers a split mapping's lookups cycle through. */
const SPLIT_CALLERS = 200;

/** A second number routed through the same strategy, split 90/10 over two published versions. */
async function splitMapping(
  url: string,
  key: string,
  assistantId: string,
  strategyId: string,
): Promise<string> {
  for (let i = 0; i < 2; i++)
    await api(url, 'POST', `/assistant/publish/${assistantId}`, key, { note: `bench v${i + 1}` });
  const mapping = await api<{ inbound_id: string }>(url, 'POST', '/inbound/assign', key, {
    assistant_id: assistantId,
    inbound_context_strategy_id: strategyId,
    service: 'exotel',
    inbound_config: { phone_number: `+8${Date.now()}`.slice(0, 14) },
    assistant_variants: [
      { assistant_version: 1, weight: 90 },
      { assistant_version: 2, weight: 10 },
    ],
  });
  return mapping.inbound_id;
}

const LOOKUP_TABLE_HEAD = `| mode | overhead p50 ms | overhead p99 ms | round trip / webhook p50 ms | paced answered | lookups/s | answered | RSS after, MB |
|---|---|---|---|---|---|---|---|`;

const lookupRow = (l: LookupFigures) =>
  `| ${l.mode} | ${l.overheadP50} | ${l.overheadP99} | ${l.roundTripP50} / ${l.webhookP50} | ${l.pacedOk}/${l.pacedSent} | **${l.perSecond.toLocaleString('en')}** | ${l.ok}/${JOBS} | ${l.serviceRss}${l.workerRss === null ? '' : ` + worker ${l.workerRss}`} |`;

/** \`BENCH_ONLY=lookups\`: the plain and the split mapping, role all only (bench/results/lookups.md). */
function writeLookupReport(date: string, lookups: LookupFigures[]): void {
  const report = `# Lookups: plain mapping and 90/10 split

Run: ${date} (\`BENCH_ONLY=lookups npm run bench\`), ${machine()}. Same method as docs/benchmarks.md; the split
mapping's lookups cycle through ${SPLIT_CALLERS} caller numbers.

${LOOKUP_TABLE_HEAD}
${lookups.map(lookupRow).join('\n')}
`;
  writeFileSync('bench/results/lookups.md', report);
  console.log(report);
}

function serviceEnv(
  role: 'all' | 'api' | 'worker',
  prefix: string,
  port: number,
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL,
    SECRETS_ENCRYPTION_KEY:
      process.env.SECRETS_ENCRYPTION_KEY ?? 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    ADMIN_API_KEY: ADMIN,
    APP_ROLE: role,
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
  };
}

async function main(): Promise<void> {
  const mainEntry = join(DIST, 'main.js');
  const workerEntry = join(DIST, 'worker.js');
  if (!existsSync(mainEntry))
    throw new Error(`${mainEntry} not found: run \`npm run build\` first (or set BENCH_DIST)`);
  const date = new Date().toISOString();
  const prefix = `vac-bench-${Date.now()}`;
  console.log(`bench: ${machine()}`);
  await resetDatabase(DATABASE_URL);

  const ts = ['-r', 'ts-node/register/transpile-only'];
  const started: Server[] = [];
  const run = async (args: string[], env: NodeJS.ProcessEnv, readyUrl?: string) => {
    const proc = await startProcess(args, env, readyUrl);
    started.push(proc);
    return proc;
  };
  const http: Record<string, HttpResult> = {};
  const lookups: LookupFigures[] = [];
  let httpRss = Number.NaN;
  let render: RenderFigures | null = null;
  let idempotency: IdempotencyFigures | null = null;
  const webhook = await startWebhook();
  try {
    const nodeHttp = await run(
      [...ts, 'bench/ceiling-node-http.ts'],
      { PORT: '3110' },
      'http://127.0.0.1:3110/ping',
    );
    const nest = await run(
      [...ts, 'bench/ceiling-app.ts'],
      { PORT: '3111' },
      'http://127.0.0.1:3111/ping',
    );
    let service = await run(
      [mainEntry],
      serviceEnv('all', prefix, 3112),
      'http://127.0.0.1:3112/health',
    );
    const key = await createBenchKey(service.url, ADMIN);
    const base = {
      connections: CONNECTIONS,
      duration: DURATION,
      headers: { Authorization: `Bearer ${key}` },
    };
    if (process.env.BENCH_ONLY === 'idempotency') {
      writeIdempotencyReport(date, await benchIdempotency(service, base), {
        connections: CONNECTIONS,
        seconds: DURATION,
      });
      return;
    }
    if (process.env.BENCH_ONLY === 'render') {
      const nestCeiling = await load(
        'bare NestJS + Express route',
        { ...base, url: `${nest.url}/ping` },
        nest.child.pid,
      );
      writeRenderReport(date, await benchRender(service, key, base), nestCeiling);
      return;
    }
    const [first] = await seedAssistants(service.url, key);
    if (process.env.BENCH_ONLY !== 'lookups') {
      http.nodeHttp = await load(
        'bare node:http route',
        { ...base, url: `${nodeHttp.url}/ping` },
        nodeHttp.child.pid,
      );
      http.nest = await load(
        'bare NestJS + Express route',
        { ...base, url: `${nest.url}/ping` },
        nest.child.pid,
      );
      http.check = await load(
        'GET /auth/check-key',
        { ...base, url: `${service.url}/auth/check-key` },
        service.child.pid,
      );
      http.details = await load(
        'GET /assistant/details/:id',
        { ...base, url: `${service.url}/assistant/details/${first}` },
        service.child.pid,
      );
      http.list = await load(
        'GET /assistant/list?limit=20',
        { ...base, url: `${service.url}/assistant/list?limit=20` },
        service.child.pid,
      );
      httpRss = rssMb(service.child.pid);
      render = await benchRender(service, key, base);
      http.render = render.result;
      idempotency = await benchIdempotency(service, base);
      // The ceilings once more: the machine's load drifts, so ratios are taken to the mean of both.
      http.nestAfter = await load(
        'bare NestJS + Express route, again',
        { ...base, url: `${nest.url}/ping` },
        nest.child.pid,
      );
      http.nodeHttpAfter = await load(
        'bare node:http route, again',
        { ...base, url: `${nodeHttp.url}/ping` },
        nodeHttp.child.pid,
      );
    }
    await Promise.all([nodeHttp.stop(), nest.stop()]);

    if (process.env.BENCH_ONLY !== 'http') {
      const strategy = await api<{ strategy_id: string }>(
        service.url,
        'POST',
        '/inbound_context_strategy/create',
        key,
        {
          strategy_name: 'Bench CRM',
          strategy_type: 'webhook',
          strategy_config: { url: webhook.url, timeout_seconds: 2 },
        },
      );
      const mapping = await api<{ inbound_id: string }>(
        service.url,
        'POST',
        '/inbound/assign',
        key,
        {
          assistant_id: first,
          inbound_context_strategy_id: strategy.strategy_id,
          service: 'exotel',
          inbound_config: { phone_number: `+9${Date.now()}`.slice(0, 14) },
        },
      );
      const split = await splitMapping(service.url, key, first, strategy.strategy_id);
      lookups.push(await benchLookups('role all', prefix, mapping.inbound_id, { service }));
      lookups.push(
        await benchLookups('role all, 90/10 split', prefix, split, { service }, SPLIT_CALLERS),
      );
      if (process.env.BENCH_ONLY === 'lookups') {
        writeLookupReport(date, lookups);
        return;
      }

      await service.stop();
      service = await run(
        [mainEntry],
        serviceEnv('api', prefix, 3112),
        'http://127.0.0.1:3112/health',
      );
      const worker = await run([workerEntry], serviceEnv('worker', prefix, 3113));
      lookups.push(
        await benchLookups('APP_ROLE=api + worker process', prefix, mapping.inbound_id, {
          service,
          worker,
        }),
      );
      lookups.push(
        await benchLookups(
          'APP_ROLE=api + worker, 90/10 split',
          prefix,
          split,
          { service, worker },
          SPLIT_CALLERS,
        ),
      );
    }
  } finally {
    await Promise.all(started.map((proc) => proc.stop()));
    webhook.child.kill();
  }
  writeReport(date, http, httpRss, lookups, render, idempotency);
}

function writeReport(
  date: string,
  r: Record<string, HttpResult>,
  httpRss: number,
  lookups: LookupFigures[],
  render: RenderFigures | null,
  idempotency: IdempotencyFigures | null,
): void {
  const mean = (a: string, b: string) => (r[a].reqPerSec + (r[b]?.reqPerSec ?? r[a].reqPerSec)) / 2;
  const nestCeiling = mean('nest', 'nestAfter');
  const nodeCeiling = mean('nodeHttp', 'nodeHttpAfter');
  const row = (id: string) => {
    const x = r[id];
    const target = HTTP_TARGETS[id] ? `≥ ${HTTP_TARGETS[id]}%` : '';
    return `| ${x.name} | ${x.reqPerSec.toLocaleString('en')} | ${x.p50} | ${x.p99} | ${round((x.reqPerSec / nestCeiling) * 100, 0)}% | ${target} | ${round((x.reqPerSec / nodeCeiling) * 100, 0)}% | ${x.errors + x.non2xx} |`;
  };
  const failures = lookups
    .filter((l) => Object.keys(l.failures).length)
    .map((l) => `${l.mode}: ${JSON.stringify(l.failures)}`);
  const report = `# Benchmarks

Last run: ${date}
Machine: ${machine()}
Command: \`npm run build && npm run bench\` (bench/run.ts). Everything below comes from this one run: the
ceilings, the service and the load generator share the machine's cores (as do MariaDB and Redis), so
absolute numbers are low and the ratios are what to compare.

The service is the built \`node dist/main.js\` on MySQL (MariaDB here) + Redis with request logging on at
\`info\` (stdout discarded), **rate limiting on** with \`RATE_LIMIT_PER_MINUTE=${RATE_LIMIT.toLocaleString('en')}\` (every request
is counted in Redis; the budget is set high so the bench is never throttled), activity-log writes durable
(MariaDB defaults: \`innodb_flush_log_at_trx_commit=1\`). Each ceiling runs in its own process.

## HTTP routes

autocannon, ${CONNECTIONS} connections, ${DURATION} s per route after a 2 s warm-up, in the order of the table. The
ceilings are measured before and after the service's routes; ratios are to the mean of the two. Details and
list repeat the same reads, so after the first each is answered from the process's view cache (one Redis GET of
the view stamp instead of the MySQL statements; a read after a write pays the statements). Service RSS
after these routes: ${httpRss} MB.

| route | req/s | p50 ms | p99 ms | of bare Nest | target | of node:http | errors |
|---|---|---|---|---|---|---|---|
${['nodeHttp', 'nest', 'check', 'details', 'list', 'render', 'nestAfter', 'nodeHttpAfter']
  .filter((id) => r[id])
  .map(row)
  .join('\n')}
${render ? `\n${renderNote(render)}\n` : ''}${idempotency ? `\n## Idempotency-Key on a create\n\nThe same \`POST /assistant/create\` without the header, with a new key on every request, and with one\nkey replayed (the kept response), one after the other in this run; ratios to the create without a key.\n\n${idempotencyTable(idempotency)}\n` : ''}
## Inbound context lookups

A plain \`bull\` producer: \`queue.add(data)\` with no options, then \`job.finished()\`; the webhook is a local
server in its own process answering at once. *Overhead* = round trip minus the webhook latency the
service measured (\`latency_ms\`), over ${PACED_RATE} lookups/s paced for ${PACED_SECONDS} s (successful lookups). Throughput:
${JOBS.toLocaleString('en')} jobs, ${IN_FLIGHT} in flight. Targets: overhead p50 ≤ 2 ms, p99 ≤ 10 ms; ≥ 1,500 lookups/s, all answered;
service RSS ≤ 250 MB.

${LOOKUP_TABLE_HEAD}
${lookups.length ? lookups.map(lookupRow).join('\n') : '| not measured | | | | | | | |'}
${failures.length ? `\nFailures: ${failures.join('; ')}\n` : ''}
\`GET /logs\` on 1,000,000 rows is measured by \`npm run bench:logs\` (bench/results/logs.md).
`;
  // Hand-written analysis below the marker survives a new run.
  const marker = '<!-- analysis -->';
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '';
  const analysis = previous.includes(marker)
    ? previous.slice(previous.indexOf(marker))
    : `${marker}\n`;
  writeFileSync('docs/benchmarks.md', `${report}\n${analysis}`);
  console.log(report);
}

/** What the render row measures, and the RSS around it. */
function renderNote(render: RenderFigures): string {
  return `The render row posts a 60 KB \`context\` to an assistant whose prompt is \`Hi {{context.blob}}. \` × 4,500 (94.5 kB):
unbounded, each answer would be a 270 MB prompt. Every answer is HTTP ${render.status} (the limit named; counted as
errors in the table, as every non-2xx is). Service RSS before this route ${render.rssBefore} MB, after ${render.rssAfter} MB.`;
}

/** \`BENCH_ONLY=render\`: the render route's figures alone, in bench/results/render.md. */
function writeRenderReport(date: string, render: RenderFigures, nest: HttpResult): void {
  const x = render.result;
  const report = `# Render route with the worst-case template

Last run: ${date}
Machine: ${machine()}
Command: \`npm run build && BENCH_ONLY=render npm run bench\` (bench/run.ts): the built service on MySQL + Redis,
autocannon, ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up.

| route | req/s | p50 ms | p99 ms | of bare Nest | status |
|---|---|---|---|---|---|
| ${nest.name} | ${nest.reqPerSec.toLocaleString('en')} | ${nest.p50} | ${nest.p99} | 100% | 200 |
| ${x.name} | ${x.reqPerSec.toLocaleString('en')} | ${x.p50} | ${x.p99} | ${round((x.reqPerSec / nest.reqPerSec) * 100, 0)}% | ${render.status} |

${renderNote(render)}
`;
  writeFileSync('bench/results/render.md', report);
  console.log(report);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
