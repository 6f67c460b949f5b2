/**
 * What the side-effect checks of a tool call cost in Redis, in round trips: paired runs on one
 * connection (the shared fail-fast one the job uses), alternating, so load drifts hit both.
 * - the `irreversible` claim (one script) over one bare `PING` round trip: about 1 means one round trip;
 * - the attempt journal's `begin` issued with the cancel record beside it (as the job does) over
 *   `begin` alone: about 1 means the cancel record adds no round trip (a `none` tool's only Redis
 *   work besides the journal it already had).
 * Usage: BENCH_REDIS_URL=redis://127.0.0.1:<port> npx ts-node --transpile-only bench/tool-side-effect-bench.ts
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { RedisAttemptJournal } from '../src/activity-log/attempt-journal';
import type { ActivityLogInput } from '../src/activity-log/activity-log.service';
import { sharedFailFastRedis } from '../src/common/redis/redis-connection';
import { ALL_QUEUES, type QueueName } from '../src/contracts/queues';
import { RedisCallCancels } from '../src/tool/call-cancels';
import { RedisCallClaims } from '../src/tool/call-claims';

const url = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const runs = Number(process.env.BENCH_RUNS ?? 2000);
const target = { kind: 'node' as const, url };
const prefix = `bench-${randomUUID().slice(0, 8)}`;
const prefixes = Object.fromEntries(ALL_QUEUES.map((q) => [q, prefix])) as Record<
  QueueName,
  string
>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(step: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await step();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const shared = sharedFailFastRedis(target);
  const redis = shared.connection;
  const claims = new RedisCallClaims(target, prefix);
  const cancels = new RedisCallCancels(target, prefix);
  const journal = new RedisAttemptJournal(target, prefixes);
  const entry = { log_type: 'tool_call', room_name: 'r' } as unknown as ActivityLogInput;
  if (redis.status !== 'ready') await new Promise((ready) => redis.once('ready', ready));
  await redis.ping();
  const ping: number[] = [];
  const claim: number[] = [];
  const begin: number[] = [];
  const beginWithCancel: number[] = [];
  const beginThenCancel: number[] = [];
  for (let i = 0; i < runs; i++) {
    const job = { queue: 'tool-call' as const, id: `j${i}`, timestamp: i };
    ping.push(await time(() => redis.ping()));
    claim.push(await time(() => claims.claim(`id-${i}`, `t${i}`, 60_000)));
    begin.push(await time(() => journal.begin(job, entry)));
    const call = { room_name: 'r', tool_call_id: `c${i}` };
    const job2 = { ...job, id: `k${i}` };
    const job3 = { ...job, id: `m${i}` };
    beginThenCancel.push(
      await time(async () => {
        await journal.begin(job3, entry);
        await cancels.sending({ room_name: 'r', tool_call_id: `d${i}` }, null, 60_000);
      }),
    );
    beginWithCancel.push(
      await time(() =>
        Promise.all([journal.begin(job2, entry), cancels.sending(call, null, 60_000)]),
      ),
    );
  }
  const rows = [
    ['irreversible claim / one PING round trip', median(claim) / median(ping)],
    [
      'journal begin + cancel record / journal begin alone',
      median(beginWithCancel) / median(begin),
    ],
    [
      '(for scale) begin, then the cancel record in a round trip of its own / begin alone',
      median(beginThenCancel) / median(begin),
    ],
  ];
  console.log(
    `runs: ${runs}; medians (ms): ping ${median(ping).toFixed(3)}, claim ${median(claim).toFixed(3)}, begin ${median(begin).toFixed(3)}, begin+cancel ${median(beginWithCancel).toFixed(3)}`,
  );
  for (const [name, ratio] of rows) console.log(`| ${name} | ${(ratio as number).toFixed(2)} |`);
  claims.onModuleDestroy();
  cancels.onModuleDestroy();
  journal.onModuleDestroy();
  shared.release();
}

void main();
