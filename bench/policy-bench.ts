/**
 * `npm run bench:policy`: what a number's inbound policy costs a lookup. Boots the service in this
 * process (MySQL or SQLite as DATABASE_URL says; Redis with REDIS_URL, else embedded), creates two
 * numbers on one assistant without a strategy (no webhook: the lookup is the service's own work),
 * one plain and one with a full policy (hours, holidays, holiday_country, caller rules and a cap,
 * so every lookup also takes a slot), and runs the lookup service on them in pairs, the order
 * alternating. The ceiling, measured in the same run and paired the same way: one Redis round trip
 * (PING on a connection of its own); embedded, where there is no Redis, the plain lookup itself.
 * With Redis it also counts the commands Redis processed per lookup of each kind.
 * Writes bench/results/policy.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import 'reflect-metadata';
import Redis from 'ioredis';
import { BENCH_ADMIN_KEY, inProcessBenchEnv } from './in-process';
import { api, createBenchKey, machine, percentile, round, stats } from './lib';
import { startRedisDelayProxy, type DelayProxy } from './redis-delay-proxy';

const median = (samples: number[]) =>
  round(
    percentile(
      [...samples].sort((a, b) => a - b),
      50,
    ),
    3,
  );

const PAIRS = Number(process.env.BENCH_PAIRS ?? 2000);
/** Round-trip mode: every Redis command the service and the ceiling send is held this long first. */
const DELAY_MS = Number(process.env.BENCH_REDIS_DELAY_MS ?? 0);
const WARMUP = 200;
const ADMIN_KEY = BENCH_ADMIN_KEY;
const { mode, redisUrl, sqliteDir } = inProcessBenchEnv('policy');

const ALL_WEEK = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [
    day,
    ['00:00-12:00', '12:00-24:00'],
  ]),
);
const FULL_POLICY = {
  timezone: 'Europe/Berlin',
  hours: ALL_WEEK,
  holidays: ['2001-01-02'],
  holiday_country: 'FR',
  callers: { deny: ['+4930666*'], allow: ['+1*', '+49*'] },
  max_concurrent_calls: 10_000,
  overflow: { action: 'reject', message: 'Busy' },
};
const phone = () => `+91 80 ${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) mkdirSync(sqliteDir, { recursive: true });
  const proxy: DelayProxy | null =
    redisUrl && DELAY_MS > 0 ? await startRedisDelayProxy(redisUrl, DELAY_MS) : null;
  if (proxy) process.env.REDIS_URL = proxy.url;
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('../src/app.module');
  const { configureApp } = await import('../src/bootstrap/configure-app');
  const { InboundContextLookupService } =
    await import('../src/lookup/inbound-context-lookup.service');
  const app = await NestFactory.create(AppModule.register({ role: 'all' }), { logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const redis = redisUrl ? new Redis(proxy?.url ?? redisUrl) : null;
  try {
    const key = await createBenchKey(base, ADMIN_KEY);
    const { assistant_id } = await api<{ assistant_id: string }>(
      base,
      'POST',
      '/assistant/create',
      key,
      {
        assistant_name: 'Policy bench',
        assistant_description: 'Benchmark',
        assistant_prompt: 'Hello {{call.caller_number}}',
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'voice-1' },
      },
    );
    const assign = async (policy?: object) =>
      (
        await api<{ inbound_id: string }>(base, 'POST', '/inbound/assign', key, {
          assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone() },
          ...(policy ? { policy } : {}),
        })
      ).inbound_id;
    const plain = await assign();
    const withPolicy = await assign(FULL_POLICY);
    const lookups = app.get(InboundContextLookupService);
    const lookup = async (inbound_id: string) => {
      const started = performance.now();
      const result = await lookups.run({
        room_name: `bench-${randomUUID()}`,
        inbound_id,
        caller_number: '+14155552671',
      });
      if (result.status !== 'skipped' || (inbound_id === withPolicy) !== (result.policy !== null))
        throw new Error(`unexpected lookup result ${JSON.stringify(result)}`);
      return performance.now() - started;
    };
    const ceiling = async () => {
      const started = performance.now();
      if (redis) await redis.ping();
      else await lookup(plain);
      return performance.now() - started;
    };
    for (let i = 0; i < WARMUP; i++)
      await Promise.all([lookup(plain), lookup(withPolicy), ceiling()]);

    const plainMs: number[] = [];
    const policyMs: number[] = [];
    const ceilingMs: number[] = [];
    const extraMs: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 === 0;
      const a = order ? await lookup(plain) : 0;
      const b = await lookup(withPolicy);
      const c = order ? a : await lookup(plain);
      plainMs.push(c);
      policyMs.push(b);
      extraMs.push(b - c);
      ceilingMs.push(await ceiling());
    }

    // Redis commands per lookup of each kind, in phases of their own (nothing else runs meanwhile).
    const commandsPer = async (inboundId: string, n = 200) => {
      if (!redis) return null;
      const processed = async () =>
        Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))![1]);
      const before = await processed();
      for (let i = 0; i < n; i++) await lookup(inboundId);
      return round((await processed()) - before - 1) / n;
    };
    const plainCommands = await commandsPer(plain);
    const policyCommands = await commandsPer(withPolicy);

    const p = { plain: stats(plainMs), policy: stats(policyMs), ceiling: stats(ceilingMs) };
    const extra = stats(extraMs);
    const ceilingName = redis
      ? 'one Redis round trip (PING)'
      : 'a plain lookup (embedded: no Redis)';
    const report = `# Inbound policy: its cost on a lookup

Last run: ${new Date().toISOString()}
Machine: ${machine()}
Mode: ${mode}
Command: \`${redisUrl ? 'REDIS_URL=... ' : ''}${proxy ? `BENCH_REDIS_DELAY_MS=${DELAY_MS} ` : ''}${process.env.DATABASE_URL ? 'DATABASE_URL=... ' : ''}npm run bench:policy\` (bench/policy-bench.ts), ${PAIRS} pairs after ${WARMUP} warm-up rounds, one at a time.

Two numbers on one assistant, no strategy (the lookup is the service's own work): one plain, one
with a full policy (hours 7 days × 2 ranges, a holiday list, \`holiday_country\`, allow and deny
rules, \`max_concurrent_calls\`: each lookup takes a slot). Each pair runs both, the order alternating;
the ceiling (${ceilingName}) is measured after each pair.

| | p50 ms | p90 ms | p99 ms |
|---|---|---|---|
| lookup, no policy | ${p.plain.p50} | ${p.plain.p90} | ${p.plain.p99} |
| lookup, full policy | ${p.policy.p50} | ${p.policy.p90} | ${p.policy.p99} |
| policy − plain, per pair | ${extra.p50} | ${extra.p90} | ${extra.p99} |
| ceiling: ${ceilingName} | ${p.ceiling.p50} | ${p.ceiling.p90} | ${p.ceiling.p99} |

Medians (µs precision): policy − plain ${median(extraMs)} ms, ceiling ${median(ceilingMs)} ms; ratio **${round(median(extraMs) / median(ceilingMs))}**.
${
  proxy
    ? `Round-trip mode: a proxy held every command sent to Redis for ${DELAY_MS} ms (replies not held), so each sequential round trip costs about ${DELAY_MS} ms and the ratio above counts the round trips a policy adds: a lookup without a policy took ${round(median(plainMs) / median(ceilingMs))} round trips, one with a full policy ${round(median(policyMs) / median(ceilingMs))}.\n`
    : ''
}${
      plainCommands === null
        ? ''
        : `Redis commands processed per lookup (a script's own commands included): ${plainCommands} without a policy, ${policyCommands} with it: the slot's script (its 6 commands and the EVAL) and the room's record, both sent in the same turn on the auto-pipelined connection, so one more round trip.\n`
    }`;
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(`bench/results/${proxy ? 'policy-round-trips' : 'policy'}.md`, report);
    console.log(report);
  } finally {
    redis?.disconnect();
    await app.close();
    await proxy?.close();
    if (!process.env.DATABASE_URL) rmSync(sqliteDir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
