/**
 * `npm run bench`: one run, one machine, figures as ratios to a bare Nest route.
 * Needs MySQL and Redis (BENCH_DATABASE_URL, BENCH_REDIS_URL; defaults: local MariaDB and Redis).
 * Writes BENCHMARKS.md.
 */
import 'reflect-metadata';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import { InboundContextLookupClient } from '../src/inbound-context/client';
import { load, machine, percentile, round, rssMb, startServer, type HttpResult } from './lib';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/vac_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `vac-bench-${Date.now()}`;
const ADMIN = 'bench-admin-key-0123456789abcdef';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SEEDED_LOGS = Number(process.env.BENCH_LOG_ROWS ?? 100_000);

async function resetDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const db = url.pathname.slice(1);
  url.pathname = '/';
  const conn = await createConnection(url.toString());
  await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
}

async function api<T>(base: string, method: string, path: string, auth: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: T; message: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function seedLogs(userId: string, assistantId: string, rows: number): Promise<void> {
  const conn = await createConnection(DATABASE_URL);
  const types = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'];
  const start = Date.now() - rows * 1000;
  for (let offset = 0; offset < rows; offset += 2000) {
    const values: unknown[][] = [];
    for (let i = offset; i < Math.min(rows, offset + 2000); i++) {
      values.push([
        userId,
        types[i % 3],
        i % 7 === 0 ? 'error' : 'success',
        assistantId,
        `room-${i % 500}`,
        new Date(start + i * 1000),
        'seeded entry',
        '{"url":"https://example.com/hook"}',
        '{"status_code":200}',
        i % 300,
      ]);
    }
    await conn.query(
      'INSERT INTO activity_logs (user_id, log_type, status, assistant_id, room_name, timestamp, message, request_data, response_data, latency_ms) VALUES ?',
      [values],
    );
  }
  await conn.end();
}

function fastWebhook(): Promise<HttpServer> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"context":{"name":"Ada","tier":"gold","balance":42}}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface LookupFigures {
  rate: number;
  sent: number;
  ok: number;
  overheadP50: number;
  overheadP99: number;
  roundTripP50: number;
  webhookP50: number;
  maxThroughput: number;
  throughputOk: number;
  throughputTotal: number;
}

async function benchLookups(client: InboundContextLookupClient, inboundId: string): Promise<LookupFigures> {
  const failures = new Map<string, number>();
  const lookup = async () => {
    const t0 = performance.now();
    try {
      const result = await client.lookup({ room_name: 'bench', inbound_id: inboundId, caller_number: '+15550001' }, { waitMs: 5000 });
      if (result.status !== 'success') failures.set(result.error ?? result.status, (failures.get(result.error ?? result.status) ?? 0) + 1);
      return { rt: performance.now() - t0, webhook: result.latency_ms, ok: result.status === 'success' };
    } catch (error) {
      const name = error instanceof Error ? error.name : 'error';
      failures.set(name, (failures.get(name) ?? 0) + 1);
      return { rt: performance.now() - t0, webhook: 0, ok: false };
    }
  };
  for (let i = 0; i < 200; i++) await lookup(); // warm-up

  // Paced: 200 lookups/s for 10 s, each started on schedule whatever the others do.
  const rate = 200;
  const total = rate * 10;
  const started = performance.now();
  const pending: Promise<{ rt: number; webhook: number; ok: boolean }>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(lookup());
  }
  const paced = await Promise.all(pending);
  const overhead = paced.map((p) => Math.max(0, p.rt - p.webhook)).sort((a, b) => a - b);

  // Throughput: 5,000 lookups, 200 in flight.
  const n = 5000;
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (next < n) {
        next += 1;
        if ((await lookup()).ok) ok += 1;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  if (failures.size) console.log('lookup failures', Object.fromEntries(failures));
  return {
    rate,
    sent: total,
    ok: paced.filter((p) => p.ok).length,
    overheadP50: round(percentile(overhead, 50)),
    overheadP99: round(percentile(overhead, 99)),
    roundTripP50: round(percentile(paced.map((p) => p.rt).sort((a, b) => a - b), 50)),
    webhookP50: round(percentile(paced.map((p) => p.webhook).sort((a, b) => a - b), 50)),
    maxThroughput: Math.round(n / seconds),
    throughputOk: ok,
    throughputTotal: n,
  };
}

async function main(): Promise<void> {
  const date = new Date().toISOString();
  console.log(`bench: ${machine()}`);
  await resetDatabase();

  const ceiling = await startServer('bench/ceiling-app.ts', 3100, {}, '/ping');
  const service = await startServer(
    'src/main.ts',
    3101,
    {
      NODE_ENV: 'production',
      DATABASE_URL,
      REDIS_URL,
      QUEUE_PREFIX: PREFIX,
      ADMIN_API_KEY: ADMIN,
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'info',
    },
    '/health',
  );
  const webhook = await fastWebhook();
  const results: HttpResult[] = [];
  let lookups: LookupFigures | undefined;
  try {
    const created = await api<{ api_key: string; user_id: string }>(service.url, 'POST', '/auth/create-key', ADMIN, {
      user_name: 'Bench',
      user_email: `bench-${Date.now()}@example.com`,
    });
    const key = created.api_key;
    const assistantBody = {
      assistant_name: 'Bench assistant',
      assistant_description: 'Benchmark',
      assistant_prompt: 'You are helping {{context.name}} ({{context.tier}}).',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'voice-1' },
    };
    const assistant = await api<{ assistant_id: string }>(service.url, 'POST', '/assistant/create', key, assistantBody);
    for (let i = 0; i < 40; i++) await api(service.url, 'POST', '/assistant/create', key, { ...assistantBody, assistant_name: `A${i}` });
    console.log(`seeding ${SEEDED_LOGS} activity log rows`);
    await seedLogs(created.user_id, assistant.assistant_id, SEEDED_LOGS);

    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const base = { connections: CONNECTIONS, duration: DURATION, headers };
    results.push(await load('bare Nest route (ceiling)', { ...base, url: `${ceiling.url}/ping` }, ceiling.child.pid));
    results.push(
      await load('GET /assistant/details/:id', { ...base, url: `${service.url}/assistant/details/${assistant.assistant_id}` }, service.child.pid),
    );
    results.push(await load('GET /assistant/list', { ...base, url: `${service.url}/assistant/list?limit=20` }, service.child.pid));
    results.push(
      await load(
        'POST /assistant/create',
        { ...base, url: `${service.url}/assistant/create`, method: 'POST', body: JSON.stringify(assistantBody) },
        service.child.pid,
      ),
    );
    results.push(
      await load(`GET /logs (${SEEDED_LOGS.toLocaleString('en')} rows)`, { ...base, url: `${service.url}/logs?limit=50` }, service.child.pid),
    );

    const strategy = await api<{ strategy_id: string }>(service.url, 'POST', '/inbound_context_strategy/create', key, {
      strategy_name: 'Bench CRM',
      strategy_type: 'webhook',
      strategy_config: { url: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/ctx`, timeout_seconds: 2 },
    });
    const mapping = await api<{ inbound_id: string }>(service.url, 'POST', '/inbound/assign', key, {
      assistant_id: assistant.assistant_id,
      inbound_context_strategy_id: strategy.strategy_id,
      service: 'exotel',
      inbound_config: { phone_number: `+91 80${Date.now() % 1e8}` },
    });
    const client = InboundContextLookupClient.fromRedisUrl(REDIS_URL, { prefix: PREFIX });
    try {
      lookups = await benchLookups(client, mapping.inbound_id);
    } finally {
      await client.close();
    }
  } finally {
    const serviceRss = rssMb(service.child.pid);
    await Promise.all([ceiling.stop(), service.stop()]);
    webhook.close();
    writeReport(date, results, lookups, serviceRss);
  }
}

function writeReport(date: string, results: HttpResult[], lookups: LookupFigures | undefined, serviceRss: number): void {
  const ceiling = results[0]?.reqPerSec ?? Number.NaN;
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.reqPerSec.toLocaleString('en')} | ${r.p50} | ${r.p99} | ${r.rssMb} | ${round((r.reqPerSec / ceiling) * 100, 0)}% | ${r.errors + r.non2xx} |`,
  );
  const lookupSection = lookups
    ? `## Inbound context lookup round trip

Producer (\`InboundContextLookupClient\`) → Redis → processor → local webhook → activity log → result.
Overhead is the round trip minus the webhook latency the service measured.

| measure | value | target |
|---|---|---|
| paced rate | ${lookups.rate} lookups/s for 10 s (${lookups.ok}/${lookups.sent} success) | |
| overhead p50 | ${lookups.overheadP50} ms | ≤ 3 ms |
| overhead p99 | ${lookups.overheadP99} ms | ≤ 15 ms |
| round trip p50 / webhook p50 | ${lookups.roundTripP50} ms / ${lookups.webhookP50} ms | |
| max throughput (200 in flight) | ${lookups.maxThroughput.toLocaleString('en')} lookups/s (${lookups.throughputOk}/${lookups.throughputTotal} success) | ≥ 1,000 lookups/s |
| service RSS after the run | ${serviceRss} MB | |
`
    : '## Inbound context lookup round trip\n\nNot measured: the run stopped before this step.\n';
  const report = `# Benchmarks

Last run: ${date}
Machine: ${machine()}
Command: \`npm run bench\` (autocannon, ${CONNECTIONS} connections, ${DURATION} s per route after a 2 s warm-up; the
service runs as one process with MySQL (MariaDB on this machine) and Redis, request logging on at \`info\`
to a discarded stdout, rate limiting off). Server and load generator share the machine's cores, so
absolute numbers are low; compare the ratios, which are taken in this one run.

## HTTP routes

| route | req/s | p50 ms | p99 ms | RSS MB | of ceiling | errors |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Target: authenticated reads ≥ 50% of the ceiling.

${lookupSection}
\`GET /logs\` on 1,000,000 rows is measured separately by \`npm run bench:logs\` (bench/results/logs.md).
`;
  // Hand-written analysis below the marker survives a new run.
  const marker = '<!-- analysis -->';
  const previous = existsSync('BENCHMARKS.md') ? readFileSync('BENCHMARKS.md', 'utf8') : '';
  const analysis = previous.includes(marker) ? previous.slice(previous.indexOf(marker)) : `${marker}\n`;
  writeFileSync('BENCHMARKS.md', `${report}\n${analysis}`);
  console.log(report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
