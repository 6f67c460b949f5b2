import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type autocannon from 'autocannon';
import { load, machine, round, type HttpResult, type Server } from './lib';

/** The cost of `Idempotency-Key` on a create: the same create without a key, with a new key each time, and replayed. */
export interface IdempotencyFigures {
  without: HttpResult;
  withKey: HttpResult;
  replayed: HttpResult;
}

const CREATE_BODY = JSON.stringify({
  assistant_name: 'Idempotency bench',
  assistant_description: 'Benchmark',
  assistant_prompt: 'You answer calls for the bench.',
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'voice-1' },
});

/**
 * `POST /assistant/create` three ways, one after the other on the same service: no header; a new
 * `Idempotency-Key` on every request (the claim insert, the create, the kept response: the cost a
 * client pays for safe retries); one key sent again and again (every answer the kept response).
 */
export async function benchIdempotency(
  service: Server,
  base: Omit<autocannon.Options, 'url'>,
): Promise<IdempotencyFigures> {
  const url = `${service.url}/assistant/create`;
  const headers = { ...(base.headers ?? {}), 'Content-Type': 'application/json' };
  const create = { ...base, url, method: 'POST' as const, headers, body: CREATE_BODY };
  const pid = service.child.pid;
  const without = await load('POST /assistant/create, no Idempotency-Key', create, pid);
  const withKey = await load(
    'POST /assistant/create, a new Idempotency-Key each',
    {
      ...create,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, 'Idempotency-Key': `bench-${randomUUID()}` },
          }),
        },
      ],
    },
    pid,
  );
  const replayed = await load(
    'POST /assistant/create, one Idempotency-Key replayed',
    { ...create, headers: { ...headers, 'Idempotency-Key': `bench-replay-${randomUUID()}` } },
    pid,
  );
  return { without, withKey, replayed };
}

/** The table of the three runs, as ratios to the create without a key. */
export function idempotencyTable(f: IdempotencyFigures): string {
  const row = (x: HttpResult) =>
    `| ${x.name} | ${x.reqPerSec.toLocaleString('en')} | ${x.p50} | ${x.p99} | ${round((x.reqPerSec / f.without.reqPerSec) * 100, 0)}% | ${x.errors + x.non2xx} |`;
  return `| request | req/s | p50 ms | p99 ms | of no key | errors |
|---|---|---|---|---|---|
${[f.without, f.withKey, f.replayed].map(row).join('\n')}`;
}

/** \`BENCH_ONLY=idempotency\`: these figures alone, in bench/results/idempotency.md. */
export function writeIdempotencyReport(
  date: string,
  figures: IdempotencyFigures,
  settings: { connections: number; seconds: number },
): void {
  const report = `# Cost of Idempotency-Key on a create

Last run: ${date}
Machine: ${machine()}
Command: \`npm run build && BENCH_ONLY=idempotency npm run bench\` (bench/run.ts): the built service on
MySQL + Redis, autocannon, ${settings.connections} connections, ${settings.seconds} s per run after a 2 s warm-up. The three runs follow each other on one service in one run.

${idempotencyTable(figures)}

A new key costs a claim (an INSERT into \`idempotency_keys\`) before the create and an UPDATE keeping
the response after it; a replay runs one SELECT and answers the kept response without running the route.
`;
  writeFileSync('bench/results/idempotency.md', report);
  console.log(report);
}
