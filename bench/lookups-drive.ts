/**
 * The producer of `npm run bench:lookups`: a plain `bull` queue (`add(data)` with no options, then
 * `job.finished()`) on one Redis server or a cluster (the prefix and `createClient` the README shows,
 * through `openProducerQueue`, whose subscriber is on the master of the queue's slot). One warm-up, a paced phase (fixed rate) and a throughput phase (a
 * fixed number of jobs, a fixed number in flight). The same function drives the service and the no-op
 * worker, so both see the same producer.
 */
import { performance } from 'node:perf_hooks';
import type Bull from 'bull';
import type { RedisTarget } from '../src/config/redis-target';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../src/contracts/queues';
import { openProducerQueue } from '../src/queue/producer-queue';
import { percentile, round } from './lib';
import {
  cpuPerJob,
  cpuSnapshot,
  writesPerJob,
  writesSnapshot,
  type ProcessSet,
} from './process-cpu';

export interface DriveSettings {
  warmup: number;
  pacedRate: number;
  pacedSeconds: number;
  jobs: number;
  inFlight: number;
}

export interface Sample {
  rt: number;
  webhook: number;
  ok: boolean;
  /** The job, and when (epoch ms) its result reached the producer: for the split of a paced phase. */
  jobId?: string;
  answeredAt?: number;
}

/**
 * Where a paced lookup's round trip went, from the job's own stamps in Redis (`timestamp`,
 * `processedOn`, `finishedOn`, in ms): waiting in the queue until a worker took it, running in the
 * worker, and the result's way back to the producer (`global:completed`).
 */
export interface RoundTripSplit {
  queuedP50: number;
  queuedP99: number;
  runningP50: number;
  runningP99: number;
  toldP50: number;
  toldP99: number;
}

export interface DriveFigures {
  /**
   * Paced phase: jobs sent and answered; round trip, webhook latency and round trip minus webhook
   * over the jobs answered in time (the `late` ones are counted apart).
   */
  paced: { sent: number; ok: number; rtP50: number; rtP99: number; webhookP50: number };
  overheadP50: number;
  overheadP99: number;
  /** Throughput phase. */
  perSecond: number;
  /** Throughput phase: CPU µs per job in each process that served it (`total`: all of them). */
  cpuUsPerJob: Record<string, number>;
  /** Throughput phase: write system calls per job in each process (absent from older reports). */
  writesPerJob?: Record<string, number>;
  ok: number;
  failures: Record<string, number>;
  /**
   * Answered only after LATE_MS (both phases): `job.finished()` missed the completion event (it
   * subscribes after checking the job's state) and its 5-second watchdog found the result.
   */
  late: number;
}

/** Bull's `finished()` watchdog polls every 5 s; an answer this late was found by it. */
const LATE_MS = 4900;

/** The producer's side of one scenario: a warm-up, a throughput phase, a paced phase, in any order. */
export interface Driver {
  /** `n` lookups one after another (the first waits up to 120 s for a worker process to boot). */
  warmUp(n: number): Promise<void>;
  /** `jobs` lookups, `inFlight` at a time. */
  throughput(
    jobs: number,
    inFlight: number,
  ): Promise<{ perSecond: number; ok: number; late: number }>;
  /** `rate` lookups a second for `seconds`, each on schedule: the percentiles of those answered in time. */
  paced(rate: number, seconds: number): Promise<PacedFigures>;
  /** Failures by kind since the warm-up. */
  failures: Record<string, number>;
  close(): Promise<void>;
}

export interface PacedFigures {
  sent: number;
  ok: number;
  rtP50: number;
  rtP99: number;
  webhookP50: number;
  overheadP50: number;
  overheadP99: number;
  late: number;
  split?: RoundTripSplit;
}

/** A producer on `target` sending lookups of `inboundId` to the queue under `prefix`. */
export async function openDriver(
  target: RedisTarget,
  prefix: string,
  inboundId: string,
): Promise<Driver> {
  const { queue, close } = openProducerQueue<InboundContextLookupJobData>(
    QUEUES.INBOUND_CONTEXT_LOOKUP,
    target,
    prefix,
  );
  queue.setMaxListeners(0); // job.finished() listens for global events once per job in flight
  const failures: Record<string, number> = {};
  const lookup = sampler(queue, prefix, inboundId, failures);
  await queue.isReady();
  return {
    failures,
    close,
    warmUp: async (n) => {
      await lookup(120_000);
      for (let i = 0; i < n; i++) await lookup();
      for (const key of Object.keys(failures)) delete failures[key];
    },
    throughput: (jobs, inFlight) => throughputPhase(lookup, jobs, inFlight),
    paced: async (rate, seconds) => {
      const samples = await pacedPhase(lookup, rate, seconds);
      return { ...pacedFigures(samples), split: await roundTripSplit(queue, samples) };
    },
  };
}

/** Percentiles of a paced phase's lookups answered in time. */
/** `xs` sorted in place, smallest first (what `percentile` reads). */
const ascending = (xs: number[]) => xs.sort((a, b) => a - b);

function pacedFigures(paced: Sample[]): PacedFigures {
  const answered = paced.filter((p) => p.ok);
  const inTime = answered.filter((p) => p.rt < LATE_MS);
  const overhead = ascending(inTime.map((p) => Math.max(0, p.rt - p.webhook)));
  const rts = ascending(inTime.map((p) => p.rt));
  return {
    sent: paced.length,
    ok: answered.length,
    rtP50: round(percentile(rts, 50)),
    rtP99: round(percentile(rts, 99)),
    webhookP50: round(percentile(ascending(inTime.map((p) => p.webhook)), 50)),
    overheadP50: round(percentile(overhead, 50)),
    overheadP99: round(percentile(overhead, 99)),
    late: answered.length - inTime.length,
  };
}

/** The split of the answered samples' round trips, read from their jobs' stamps. */
async function roundTripSplit(queue: Bull.Queue, samples: Sample[]): Promise<RoundTripSplit> {
  const answered = samples.filter((s) => s.ok && s.jobId && s.answeredAt && s.rt < LATE_MS);
  const stamps = await Promise.all(
    answered.map((s) =>
      queue.client.hmget(queue.toKey(s.jobId ?? ''), 'timestamp', 'processedOn', 'finishedOn'),
    ),
  );
  const queued: number[] = [];
  const running: number[] = [];
  const told: number[] = [];
  stamps.forEach(([added, taken, finished], i) => {
    if (!added || !taken || !finished) return;
    queued.push(Number(taken) - Number(added));
    running.push(Number(finished) - Number(taken));
    told.push((answered[i].answeredAt ?? 0) - Number(finished));
  });
  const [q, r, t] = [queued, running, told].map(ascending);
  const at = (xs: number[], p: number) => round(percentile(xs, p));
  return {
    queuedP50: at(q, 50),
    queuedP99: at(q, 99),
    runningP50: at(r, 50),
    runningP99: at(r, 99),
    toldP50: at(t, 50),
    toldP99: at(t, 99),
  };
}

/** Runs a warm-up, the paced phase, then the throughput phase; `around` brackets the measured phases. */
export async function drive(
  target: RedisTarget,
  prefix: string,
  inboundId: string,
  settings: DriveSettings,
  around: { before(): Promise<void>; after(): Promise<void> },
  processes: ProcessSet = {},
): Promise<DriveFigures> {
  const driver = await openDriver(target, prefix, inboundId);
  try {
    await driver.warmUp(settings.warmup);
    await around.before();
    const paced = await driver.paced(settings.pacedRate, settings.pacedSeconds);
    const cpuBefore = cpuSnapshot(processes);
    const writesBefore = writesSnapshot(processes);
    const throughput = await driver.throughput(settings.jobs, settings.inFlight);
    const cpu = cpuPerJob(cpuBefore, cpuSnapshot(processes), settings.jobs);
    const writes = writesPerJob(writesBefore, writesSnapshot(processes), settings.jobs);
    await around.after();
    const { overheadP50, overheadP99, late, ...pacedRest } = paced;
    return {
      paced: pacedRest,
      overheadP50,
      overheadP99,
      perSecond: throughput.perSecond,
      cpuUsPerJob: cpu,
      writesPerJob: writes,
      ok: throughput.ok,
      failures: driver.failures,
      late: late + throughput.late,
    };
  } finally {
    await driver.close();
  }
}

/**
 * How the producer waits for a result. `events` (default): one `global:completed` and one
 * `global:failed` listener, subscribed before the first job, matching results to jobs by id (a
 * result published before `add()` returned is kept until it is asked for). `finished`: `job.finished()`
 * per job, as the README's first example; it checks the job's state and only then listens, so it
 * can miss a fast job's event and wait for its 5-second watchdog (counted as `late`).
 */
const PRODUCER = process.env.BENCH_PRODUCER === 'finished' ? 'finished' : 'events';
export const PRODUCER_NOTE =
  PRODUCER === 'finished'
    ? '`job.finished()` per job'
    : 'one `global:completed` / `global:failed` listener subscribed before the first job, results matched by job id';

/** Waits for `job`'s result; `ready`, when given, is awaited before a job is added. */
type Answer = ((job: Bull.Job, waitMs: number) => Promise<unknown>) & { ready?: Promise<unknown> };

function withTimeout<T>(promise: Promise<T>, waitMs: number, onTimeout = () => {}): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new Error('no answer'));
      }, waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

const viaFinished: Answer = (job, waitMs) =>
  withTimeout(job.finished() as Promise<unknown>, waitMs);

/** One listener per event for every job, subscribed before the first job is added. */
function completions(queue: Bull.Queue): Answer {
  const waiting = new Map<string, (value: unknown) => void>();
  const early = new Map<string, unknown>();
  const settle = (id: unknown, value: unknown) => {
    const resolve = waiting.get(String(id));
    if (resolve) {
      waiting.delete(String(id));
      resolve(value);
    } else early.set(String(id), value);
  };
  void queue.on('global:completed', (id: string, result: string) => settle(id, JSON.parse(result)));
  void queue.on('global:failed', (id: string, reason: string) =>
    settle(id, { status: 'failed', error: reason, latency_ms: 0 }),
  );
  // What `job.finished()` awaits before it listens: the subscriptions themselves.
  const register = (queue as unknown as { _registerEvent(e: string): Promise<unknown> })
    ._registerEvent;
  const subscribed = Promise.all(
    ['global:completed', 'global:failed'].map((e) => register.call(queue, e)),
  );
  const answer: Answer = async (job, waitMs) => {
    const id = String(job.id);
    if (early.has(id)) {
      const value = early.get(id);
      early.delete(id);
      return value;
    }
    return withTimeout(new Promise((resolve) => waiting.set(id, resolve)), waitMs, () =>
      waiting.delete(id),
    );
  };
  answer.ready = subscribed;
  return answer;
}

/** One lookup as a plain producer makes it; a failure is counted in `failures` by its kind. */
function sampler(
  queue: Bull.Queue<InboundContextLookupJobData>,
  prefix: string,
  inboundId: string,
  failures: Record<string, number>,
): (waitMs?: number) => Promise<Sample> {
  const answer = PRODUCER === 'finished' ? viaFinished : completions(queue);
  let seq = 0;
  return async (waitMs = 30_000): Promise<Sample> => {
    seq += 1;
    let jobId: string | undefined;
    const sample = await timedLookup(failures, async () => {
      await answer.ready;
      const job = await queue.add({
        room_name: `bench-${prefix}-${seq}`,
        inbound_id: inboundId,
        caller_number: '+919900000000',
      });
      jobId = String(job.id);
      return (await answer(job, waitMs)) as InboundContextLookupResult;
    });
    return { ...sample, jobId, answeredAt: Date.now() };
  };
}

/**
 * Times one lookup (`send` adds the job and waits for its result); a lookup that fails or gets no
 * answer is counted in `failures` by its kind.
 */
export async function timedLookup(
  failures: Record<string, number>,
  send: () => Promise<InboundContextLookupResult>,
): Promise<Sample> {
  const t0 = performance.now();
  try {
    const result = await send();
    const rt = performance.now() - t0;
    if (result.status !== 'success') {
      const kind = (result.error ?? result.status).split(':')[0];
      failures[kind] = (failures[kind] ?? 0) + 1;
    }
    return { rt, webhook: result.latency_ms, ok: result.status === 'success' };
  } catch (error) {
    const kind = error instanceof Error ? error.message.slice(0, 40) : 'error';
    failures[kind] = (failures[kind] ?? 0) + 1;
    return { rt: performance.now() - t0, webhook: 0, ok: false };
  }
}

/** Each lookup starts on schedule, whatever the others do. */
async function pacedPhase(
  lookup: () => Promise<Sample>,
  rate: number,
  seconds: number,
): Promise<Sample[]> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Promise<Sample>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(lookup());
  }
  return Promise.all(pending);
}

/** `jobs` lookups, `inFlight` at a time. */
async function throughputPhase(
  lookup: () => Promise<Sample>,
  jobs: number,
  inFlight: number,
): Promise<{ perSecond: number; ok: number; late: number }> {
  let next = 0;
  let ok = 0;
  let late = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < jobs) {
        next += 1;
        const sample = await lookup();
        if (sample.ok) ok += 1;
        if (sample.ok && sample.rt >= LATE_MS) late += 1;
      }
    }),
  );
  return { perSecond: Math.round(jobs / ((performance.now() - t0) / 1000)), ok, late };
}
