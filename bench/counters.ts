/**
 * Counts that rank two builds where this machine's timings cannot: the commands Redis ran
 * (`INFO commandstats`) and the statements a service process sent to MySQL (bench/count-sql.ts,
 * preloaded into the process and read over IPC). Read before and after a measured phase.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Redis from 'ioredis';
import * as ts from 'typescript';
import type { Server } from './lib';
import { cpuPerJob, cpuSnapshot, type ProcessSet } from './process-cpu';

/**
 * Commands the Redis server at `url` has run since it started, by command (`INFO commandstats`).
 * A script's own calls count too: one EVALSHA whose script runs INCR and PTTL counts three.
 */
export async function redisCommands(url: string): Promise<Record<string, number>> {
  const redis = new Redis(url, { lazyConnect: true });
  try {
    const info = await redis.info('commandstats');
    const out: Record<string, number> = {};
    for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]] = Number(m[2]);
    return out;
  } finally {
    redis.disconnect();
  }
}

/** Commands run between two `redisCommands` readings, per job, by command and in `total` (2 decimals). */
export function commandsPerJob(
  before: Record<string, number>,
  after: Record<string, number>,
  jobs: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, calls] of Object.entries(after)) {
    // `info` is the reading itself.
    if (name === 'info') continue;
    const n = calls - (before[name] ?? 0);
    if (n <= 0) continue;
    out[name] = Math.round((n / jobs) * 100) / 100;
    total += n;
  }
  out.total = Math.round((total / jobs) * 100) / 100;
  return out;
}

/** The Redis commands of a per-job reading as text: the total, then the commands in order of calls. */
export function commandsText(perJob: Record<string, number> | undefined): string {
  if (!perJob) return '—';
  const named = Object.entries(perJob)
    .filter(([name, n]) => name !== 'total' && n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`);
  return named.length ? `**${perJob.total}** (${named.join(', ')})` : '0';
}

export type SqlCount = {
  total: number;
  logWrites: number;
  roundTrips: number;
  gcMs: number;
  scavenges: number;
};

/**
 * `bench/<name>.ts` as plain JavaScript, for a measured process to preload (`node -r`): through
 * ts-node it would load the TypeScript compiler and ts-node's hooks into the process being
 * measured, which runs from `dist` without them in production.
 */
export function preload(name: string): string[] {
  const out = join('node_modules', '.cache', 'vac-bench', `${name}.js`);
  mkdirSync(dirname(out), { recursive: true });
  const { outputText } = ts.transpileModule(readFileSync(`bench/${name}.ts`, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  writeFileSync(out, outputText);
  return ['-r', `./${out}`];
}

/** bench/count-sql.ts, preloaded: the process counts the statements it sends to MySQL. */
export const countSqlPreload = () => preload('count-sql');

/** The statements (and round trips) a process preloaded with bench/count-sql.ts has sent so far. */
export function sqlCount(proc: Server): Promise<SqlCount> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no SQL count from the process')), 10_000);
    const onMessage = (message: { sqlCount?: SqlCount }) => {
      if (!message?.sqlCount) return;
      clearTimeout(timer);
      proc.child.off('message', onMessage);
      resolve(message.sqlCount);
    };
    proc.child.on('message', onMessage);
    proc.child.send({ sqlCount: true });
  });
}

/** The statements (and round trips) `procs` have sent so far, together. */
export async function sqlCounts(procs: Server[]): Promise<SqlCount> {
  const counts = await Promise.all(procs.map(sqlCount));
  return counts.reduce(
    (a, c) => ({
      total: a.total + c.total,
      logWrites: a.logWrites + c.logWrites,
      roundTrips: a.roundTrips + c.roundTrips,
      gcMs: a.gcMs + c.gcMs,
      scavenges: a.scavenges + c.scavenges,
    }),
    { total: 0, logWrites: 0, roundTrips: 0, gcMs: 0, scavenges: 0 },
  );
}

/** What one request or job cost over a measured phase, counted. */
export interface PerJobCounts {
  /** CPU µs by process (`producer`: this process, the load generator), and `total`. */
  cpuUs: Record<string, number>;
  /** Redis commands by command, and `total` (every client of the server, the producer's included). */
  redis: Record<string, number> | null;
  /** MySQL statements and round trips the counted service processes sent. */
  sql: { statements: number; roundTrips: number } | null;
  /** Their garbage collection: wall µs paused per job, and scavenges per 1,000 jobs. */
  gc?: { usPerJob: number; scavengesPer1000: number } | null;
}

/**
 * Starts counting: CPU of `processes` (and this one), the commands of the Redis server at
 * `redisUrl`, the statements of `sqlProcs` (preloaded with bench/count-sql.ts). The function
 * returned stops and answers per job.
 */
export async function startCounting(
  processes: ProcessSet,
  redisUrl: string | null,
  sqlProcs: Server[],
): Promise<(jobs: number) => Promise<PerJobCounts>> {
  const redisBefore = redisUrl ? await redisCommands(redisUrl) : null;
  const sqlBefore = sqlProcs.length ? await sqlCounts(sqlProcs) : null;
  const cpuBefore = cpuSnapshot(processes);
  return async (jobs) => {
    const cpu = cpuPerJob(cpuBefore, cpuSnapshot(processes), jobs);
    const redis =
      redisUrl && redisBefore
        ? commandsPerJob(redisBefore, await redisCommands(redisUrl), jobs)
        : null;
    const sqlAfter = sqlBefore ? await sqlCounts(sqlProcs) : null;
    const per = (n: number) => Math.round((n / jobs) * 1000) / 1000;
    const sql =
      sqlBefore && sqlAfter
        ? {
            statements: per(sqlAfter.total - sqlBefore.total),
            roundTrips: per(sqlAfter.roundTrips - sqlBefore.roundTrips),
          }
        : null;
    const gc =
      sqlBefore && sqlAfter
        ? {
            usPerJob: Math.round(((sqlAfter.gcMs - sqlBefore.gcMs) * 1000) / jobs),
            scavengesPer1000: Math.round(
              ((sqlAfter.scavenges - sqlBefore.scavenges) * 1000) / jobs,
            ),
          }
        : null;
    return { cpuUs: cpu, redis, sql, gc };
  };
}
