/**
 * CPU time by process for `npm run bench:lookups`: how much of the machine one lookup (or one no-op
 * job) costs in each process that serves it, over the throughput phase. The share of the no-op
 * job's throughput a lookup can reach follows from these: on a machine of N cores, lookups/s can
 * be at most N seconds of CPU over the CPU one lookup costs in all processes together, and one
 * process (Node runs a process's JavaScript on one thread) at most one second of CPU a second.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Redis from 'ioredis';
import mysql from 'mysql2/promise';
import type { RedisTarget } from '../src/config/redis-target';

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc cannot say. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * Write system calls (`write`, `writev`: `syscw` of /proc/<pid>/io) a process has made so far; NaN
 * where /proc cannot say. Each socket write is one, so the count shows how well a process batches
 * what it sends (Redis commands, SQL, HTTP, log lines), free of the machine's timing noise.
 */
export function processWrites(pid: number | 'self' | undefined): number {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Number(/^syscw: (\d+)$/m.exec(io)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** The processes whose CPU is counted, by name (a name may stand for several, e.g. a cluster's nodes). */
export type ProcessSet = Record<string, number[]>;

/** `read` of each named set of processes (summed over its pids), and `own` as `producer`. */
function snapshot(
  processes: ProcessSet,
  own: number,
  read: (pid: number) => number,
): Record<string, number> {
  const taken: Record<string, number> = { producer: own };
  for (const [name, pids] of Object.entries(processes))
    taken[name] = pids.reduce((sum, pid) => sum + read(pid), 0);
  return taken;
}

/** CPU ms used so far by each named set of processes, and by this process as `producer`. */
export function cpuSnapshot(processes: ProcessSet): Record<string, number> {
  const own = process.cpuUsage();
  return snapshot(processes, (own.user + own.system) / 1000, processCpuMs);
}

/** Write system calls made so far by each named set of processes, and by this one as `producer`. */
export function writesSnapshot(processes: ProcessSet): Record<string, number> {
  return snapshot(processes, processWrites('self'), processWrites);
}

/**
 * The change per job by process between two snapshots, times `scale`, rounded to `decimals`, and
 * `total`; a process /proc could not read is left out.
 */
function perJob(
  before: Record<string, number>,
  after: Record<string, number>,
  jobs: number,
  { scale, decimals }: { scale: number; decimals: number },
): Record<string, number> {
  const unit = 10 ** decimals;
  const out: Record<string, number> = {};
  let total = 0;
  for (const name of Object.keys(after)) {
    const value = ((after[name] - before[name]) * scale) / jobs;
    if (!Number.isFinite(value)) continue;
    out[name] = Math.round(value * unit) / unit;
    total += value;
  }
  out.total = Math.round(total * unit) / unit;
  return out;
}

/** Write system calls per job by process between two snapshots (two decimals), and `total`. */
export const writesPerJob = (
  before: Record<string, number>,
  after: Record<string, number>,
  jobs: number,
) => perJob(before, after, jobs, { scale: 1, decimals: 2 });

/** CPU µs per job by process between two snapshots (from ms), and `total`. */
export const cpuPerJob = (
  before: Record<string, number>,
  after: Record<string, number>,
  jobs: number,
) => perJob(before, after, jobs, { scale: 1000, decimals: 0 });

/** The process ids of the Redis servers of `target` (`INFO server`'s `process_id`). */
export async function redisPids(target: RedisTarget): Promise<number[]> {
  const clients =
    target.kind === 'node'
      ? [new Redis(target.url, { lazyConnect: true })]
      : target.nodes.map((n) => new Redis({ host: n.host, port: n.port, lazyConnect: true }));
  try {
    return await Promise.all(
      clients.map(async (client) => {
        const info = await client.info('server');
        return Number(/process_id:(\d+)/.exec(info)?.[1]);
      }),
    );
  } finally {
    for (const client of clients) client.disconnect();
  }
}

/** The MySQL server's process id, from its pid file (the server runs on this machine). */
export async function mysqlPid(databaseUrl: string): Promise<number[]> {
  const connection = await mysql.createConnection(databaseUrl);
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT @@pid_file AS file');
    return [Number(readFileSync(String(rows[0]?.file), 'utf8').trim())];
  } catch {
    return [];
  } finally {
    await connection.end();
  }
}
