import type { JobOptions } from 'bull';
import type { QueueName } from '../contracts/queues';

/** What a processor receives: the subset of a Bull job that the in-process runner also provides. */
export interface QueueJob<D> {
  id: string | number;
  data: D;
  /** When the job was added (Unix ms). */
  timestamp: number;
  /** Attempts that have failed before this one (0 on the first run). */
  attemptsMade: number;
  opts: JobOptions;
  /** Marks a failure as permanent: the job is not retried whatever its `attempts`. */
  discard(): void;
}

export interface RequestOptions extends JobOptions {
  /** How long the producer waits for the result before giving up with `JobWaitTimeoutError`. */
  waitMs: number;
}

/**
 * A queue as the rest of the service sees it, whether it is Bull on Redis or run in-process.
 * `add` is fire-and-forget (end-call deliveries); `request` adds and waits for the return value.
 */
export interface JobQueue<D = unknown, R = unknown> {
  readonly name: QueueName;
  add(data: D, options?: JobOptions): Promise<string>;
  request(data: D, options: RequestOptions): Promise<R>;
}

export class JobWaitTimeoutError extends Error {
  constructor(
    readonly queue: string,
    readonly jobId: string,
    readonly waitMs: number,
  ) {
    super(`No result from ${queue} job ${jobId} within ${waitMs} ms`);
    this.name = 'JobWaitTimeoutError';
  }
}

export class JobFailedError extends Error {
  constructor(
    readonly queue: string,
    readonly jobId: string,
    readonly reason: string,
  ) {
    super(`${queue} job ${jobId} failed: ${reason}`);
    this.name = 'JobFailedError';
  }
}

/** The queue could not accept the job (Redis down or not answering). */
export class QueueUnavailableError extends Error {
  constructor(
    readonly queue: string,
    cause: string,
  ) {
    super(`Queue ${queue} is unavailable: ${cause}`);
    this.name = 'QueueUnavailableError';
  }
}

/**
 * A backoff of our own (Bull's `backoffStrategies`, and the in-process queue): doubling from 1 s
 * and capped at 30 s, for a job retried through an outage of minutes without waiting hours.
 */
export const CAPPED_BACKOFF = 'capped';
export function cappedBackoff(attemptsMade: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attemptsMade - 1), 30_000);
}

/** Bull's backoff rule: fixed `delay`, `delay * 2^(attempt-1)` for exponential, or ours (capped). */
export function backoffDelay(backoff: JobOptions['backoff'], attemptsMade: number): number {
  if (backoff === undefined) return 0;
  if (typeof backoff === 'number') return backoff;
  if (backoff.type === CAPPED_BACKOFF) return cappedBackoff(attemptsMade);
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? delay * 2 ** Math.max(0, attemptsMade - 1) : delay;
}

export const jobQueueToken = (name: QueueName): string => `JobQueue:${name}`;
