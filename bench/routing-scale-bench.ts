/**
 * `BENCH_ONLY=routing npm run bench` (opt-in): what configuration writes, the routing table and
 * lookups cost as one tenant grows from 100 to BENCH_ROUTING_NUMBERS (100,000) numbers. One tenant,
 * one strategy, assistant A behind almost every number and assistant B behind 10. At 100 numbers
 * (assigned through the API), then again after the rest are inserted straight into MySQL and the
 * service restarted (its start-up full rebuild, timed, with the service's peak RSS and Redis's
 * memory before and after): `POST /inbound/assign` p50/p99 (BENCH_ROUTING_ASSIGNS, 10 at once),
 * `PATCH /assistant/update` of B p50/p99 (BENCH_ROUTING_UPDATES, one at a time) and lookups/s
 * (BENCH_ROUTING_LOOKUPS, 50 in flight). Report: bench/results/routing-scale.md and .json.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { api, createBenchKey, percentile, round, rssMb, seedAssistants, type Server } from './lib';
import { openDriver } from './lookups-drive';

const NUMBERS = Number(process.env.BENCH_ROUTING_NUMBERS ?? 100_000);
const ASSIGNS = Number(process.env.BENCH_ROUTING_ASSIGNS ?? 100);
const UPDATES = Number(process.env.BENCH_ROUTING_UPDATES ?? 30);
const LOOKUPS = Number(process.env.BENCH_ROUTING_LOOKUPS ?? 3000);

export interface RoutingScaleSetup {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  adminKey: string;
  /** Starts the service (role `all`) under `prefix`, ready. */
  start(): Promise<Server>;
  webhookUrl: string;
}

interface Tenant {
  key: string;
  userId: string;
  assistantA: string;
  assistantB: string;
  strategyId: string;
  inboundId: string;
}

interface AtSize {
  numbers: number;
  assignP50: number;
  assignP99: number;
  updateP50: number;
  updateP99: number;
  lookupsPerSecond: number;
}

let phoneSeq = 0;
const phone = () => `+1 555 ${String(Date.now() % 1e6).padStart(6, '0')}${String((phoneSeq += 1)).padStart(7, '0')}`;

const timed = async (work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

const p = (samples: number[], q: number) => round(percentile([...samples].sort((a, b) => a - b), q), 1);

async function seedTenant(service: Server, setup: RoutingScaleSetup): Promise<Tenant> {
  const key = await createBenchKey(service.url, setup.adminKey);
  const { user_id: userId } = await api<{ user_id: string }>(service.url, 'GET', '/auth/check-key', key);
  const [assistantA, assistantB] = await seedAssistants(service.url, key, 2);
  const { strategy_id: strategyId } = await api<{ strategy_id: string }>(
    service.url,
    'POST',
    '/inbound_context_strategy/create',
    key,
    {
      strategy_name: 'Bench CRM',
      strategy_type: 'webhook',
      strategy_config: { url: setup.webhookUrl, timeout_seconds: 2 },
    },
  );
  const tenant = { key, userId, assistantA, assistantB, strategyId, inboundId: '' };
  for (let i = 0; i < 10; i++) await assign(service, tenant, assistantB);
  for (let i = 0; i < 90; i += 10)
    await Promise.all(Array.from({ length: 10 }, () => assign(service, tenant, assistantA)));
  tenant.inboundId = await assign(service, tenant, assistantA);
  return tenant;
}

async function assign(service: Server, t: Tenant, assistantId: string): Promise<string> {
  const { inbound_id } = await api<{ inbound_id: string }>(service.url, 'POST', '/inbound/assign', t.key, {
    assistant_id: assistantId,
    inbound_context_strategy_id: t.strategyId,
    service: 'exotel',
    inbound_config: { phone_number: phone() },
  });
  return inbound_id;
}

/** The three figures at the tenant's current size. */
async function measure(service: Server, t: Tenant, setup: RoutingScaleSetup, numbers: number): Promise<AtSize> {
  const assigns: number[] = [];
  for (let i = 0; i < ASSIGNS; i += 10)
    assigns.push(
      ...(await Promise.all(
        Array.from({ length: 10 }, () => timed(() => assign(service, t, t.assistantA))),
      )),
    );
  const updates: number[] = [];
  for (let i = 0; i < UPDATES; i++)
    updates.push(
      await timed(() =>
        api(service.url, 'PATCH', `/assistant/update/${t.assistantB}`, t.key, {
          assistant_name: `B ${i}`,
        }),
      ),
    );
  const driver = await openDriver({ kind: 'node', url: setup.redisUrl }, setup.prefix, t.inboundId);
  try {
    await driver.warmUp(100);
    const { perSecond } = await driver.throughput(LOOKUPS, 50);
    return {
      numbers,
      assignP50: p(assigns, 50),
      assignP99: p(assigns, 99),
      updateP50: p(updates, 50),
      updateP99: p(updates, 99),
      lookupsPerSecond: perSecond,
    };
  } finally {
    await driver.close();
  }
}

/** Inserts numbers for assistant A straight into MySQL until the tenant has `total`. */
async function seedMappings(databaseUrl: string, t: Tenant, have: number, total: number): Promise<void> {
  const conn = await createConnection(databaseUrl);
  try {
    for (let done = have; done < total; ) {
      const rows = [];
      for (let i = 0; i < 1000 && done < total; i++, done++) {
        const digits = `44${String(done).padStart(10, '0')}`;
        const now = new Date();
        rows.push([randomUUID(), t.userId, t.assistantA, t.strategyId, 'exotel', JSON.stringify({ phone_number: `+${digits}` }), digits, true, digits, now, now]);
      }
      await conn.query(
        'INSERT INTO inbound_mappings (inbound_id, user_id, assistant_id, inbound_context_strategy_id, service, inbound_config, phone_number_normalized, is_active, active_phone_number, created_at, updated_at) VALUES ?',
        [rows],
      );
    }
  } finally {
    await conn.end();
  }
}

/** Redis's used memory, in bytes. */
async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
}

/** Restarts the service on a dropped routing table; times its start-up full rebuild and samples its RSS. */
async function rebuildAtStart(setup: RoutingScaleSetup, redis: Redis, key: string) {
  await redis.del(key);
  const before = await usedMemory(redis);
  const t0 = performance.now();
  const service = await setup.start();
  let peakRss = 0;
  while ((await redis.hexists(key, 'built')) === 0) {
    peakRss = Math.max(peakRss, rssMb(service.child.pid));
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = round((performance.now() - t0) / 1000, 1);
  return { service, seconds, peakRss, before, after: await usedMemory(redis) };
}

/** Runs the scenario on a service `setup.start()` starts (the database already reset). */
export async function benchRoutingScale(setup: RoutingScaleSetup): Promise<void> {
  const redis = new Redis(setup.redisUrl);
  const key = `${setup.prefix}:routing`;
  let service = await setup.start();
  try {
    const tenant = await seedTenant(service, setup);
    const small = await measure(service, tenant, setup, 101);
    const have = 101 + ASSIGNS;
    await seedMappings(setup.databaseUrl, tenant, have, NUMBERS);
    await service.stop();
    const rebuild = await rebuildAtStart(setup, redis, key);
    service = rebuild.service;
    const bytesPerNumber = round((rebuild.after - rebuild.before) / NUMBERS, 0);
    const large = await measure(service, tenant, setup, NUMBERS);
    const report = {
      date: new Date().toISOString(),
      numbers: NUMBERS,
      rebuild: { seconds: rebuild.seconds, peakRssMb: rebuild.peakRss },
      redisBytesPerNumber: bytesPerNumber,
      small,
      large,
      ratios: {
        assignP50: round(large.assignP50 / small.assignP50),
        updateP50: round(large.updateP50 / small.updateP50),
        lookups: round(large.lookupsPerSecond / small.lookupsPerSecond),
      },
    };
    writeFileSync('bench/results/routing-scale.json', `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync('bench/results/routing-scale.md', markdown(report));
    console.log(markdown(report));
  } finally {
    await service.stop();
    redis.disconnect();
  }
}

function markdown(r: {
  date: string;
  numbers: number;
  rebuild: { seconds: number; peakRssMb: number };
  redisBytesPerNumber: number;
  small: AtSize;
  large: AtSize;
  ratios: { assignP50: number; updateP50: number; lookups: number };
}): string {
  const row = (name: string, f: (s: AtSize) => string) =>
    `| ${name} | ${f(r.small)} | ${f(r.large)} |`;
  return [
    `# Routing at scale (${r.date})`,
    '',
    `One tenant; full rebuild of ${r.numbers} numbers at start: ${r.rebuild.seconds} s, service peak RSS ${r.rebuild.peakRssMb} MB; Redis ${r.redisBytesPerNumber} bytes per number (INFO used_memory after minus before, over the numbers).`,
    '',
    `| figure | ${r.small.numbers} numbers | ${r.large.numbers} numbers |`,
    '|---|---|---|',
    row('POST /inbound/assign p50 / p99 (ms, 10 at once)', (s) => `${s.assignP50} / ${s.assignP99}`),
    row('PATCH /assistant/update (10 numbers) p50 / p99 (ms)', (s) => `${s.updateP50} / ${s.updateP99}`),
    row('lookups/s (50 in flight)', (s) => String(s.lookupsPerSecond)),
    '',
    `Ratios (large / small): assign p50 ${r.ratios.assignP50}× (target ≤ 1.5), update p50 ${r.ratios.updateP50}× (target ≤ 1.5), lookups/s ${r.ratios.lookups}× (target ≥ 0.9).`,
    '',
  ].join('\n');
}
