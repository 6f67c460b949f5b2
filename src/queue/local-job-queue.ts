import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Logger } from '@nestjs/common';
import type { JobOptions } from 'bull';
import { loggableError } from '../common/errors/loggable-error';
import { sleep, withTimeout } from '../common/time/with-timeout';
import { QUEUE_SETTINGS, type QueueName } from '../contracts/queues';
import {
  JobFailedError,
  JobWaitTimeoutError,
  type JobQueue,
  type QueueJob,
  type RequestOptions,
  CAPPED_BACKOFF,
  cappedBackoff,
} from './job-queue';

type Handler<D, R> = (job: QueueJob<D>) => Promise<R>;

/** Told after every attempt of a job, as Bull's local `completed`/`failed` events are. */
export type AttemptListener = (
  job: QueueJob<unknown>,
  outcome: 'completed' | 'failed',
  durationMs: number,
  error?: unknown,
) => void;

const DAY_MS = 24 * 3600 * 1000;

/** Bull's backoff rule: fixed `delay`, or `delay * 2^(attempt-1)` for exponential. */
export function backoffDelay(backoff: JobOptions['backoff'], attemptsMade: number): number {
  if (backoff === undefined) return 0;
  if (typeof backoff === 'number') return backoff;
  if (backoff.type === CAPPED_BACKOFF) return cappedBackoff(attemptsMade);
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? delay * 2 ** Math.max(0, attemptsMade - 1) : delay;
}

/**
 * The embedded-mode queue: a small in-process driver with only the Bull semantics the processors
 * use. It runs at most the queue's `concurrency` jobs at once (the rest wait in order), and honours
 * `attempts` with `backoff`, `timeout`, `delay`, `discard()` and `jobId` (a recent id is not run
 * twice); a `repeat` job runs every `repeat.every` ms, or once a day from the start whatever its cron. Nothing survives a
 * restart, nothing is shared between processes, and there are no priorities, stalled-job recovery,
 * pause, or job lookup: that is what Redis adds.
 */
export class LocalJobQueue<D = unknown, R = unknown> implements JobQueue<D, R> {
  private readonly logger: Logger;
  private handler?: Handler<D, R>;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private attemptListener?: AttemptListener;
  private active = 0;
  private delayed = 0;
  private failed = 0;
  /** Attempts waiting for a free slot, oldest first. */
  private readonly waiting: (() => void)[] = [];
  /**
   * Like Bull while it keeps a job, a recent job id is not run again: adding it is a no-op and
   * `request` gets the kept result. Bounded by count (results hold rendered prompts) and age.
   */
  private readonly recent = new LRUCache<string, Promise<R>>({ max: 1_000, ttl: 3600_000 });

  constructor(
    readonly name: QueueName,
    private readonly concurrency: number = QUEUE_SETTINGS[name].concurrency,
  ) {
    this.logger = new Logger(`LocalQueue:${name}`);
  }

  attach(handler: Handler<D, R>): void {
    this.handler = handler;
  }

  onAttempt(listener: AttemptListener): void {
    this.attemptListener = listener;
  }

  /** Jobs waiting for a slot, running, sleeping before a (re)try, and failed since start. */
  counts(): { waiting: number; active: number; delayed: number; failed: number } {
    return {
      waiting: this.waiting.length,
      active: this.active,
      delayed: this.delayed,
      failed: this.failed,
    };
  }

  add(data: D, options: JobOptions = {}): Promise<string> {
    const id = String(options.jobId ?? randomUUID());
    if (options.repeat) {
      const every = ('every' in options.repeat && options.repeat.every) || DAY_MS;
      const timer = setInterval(() => this.runInBackground(randomUUID(), data, options), every);
      timer.unref();
      this.timers.add(timer);
    } else if (!this.recent.has(id)) this.runInBackground(id, data, options);
    return Promise.resolve(id);
  }

  request(data: D, { waitMs, ...options }: RequestOptions): Promise<R> {
    const id = String(options.jobId ?? randomUUID());
    const running = this.recent.get(id) ?? this.track(id, this.run(id, data, options));
    return withTimeout(running, waitMs, () => new JobWaitTimeoutError(this.name, id, waitMs));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }

  private track(id: string, running: Promise<R>): Promise<R> {
    this.recent.set(id, running);
    return running;
  }

  private runInBackground(id: string, data: D, options: JobOptions): void {
    this.track(id, this.run(id, data, options)).catch((error: unknown) =>
      this.logger.warn({ job_id: id, err: loggableError(error) }, 'in-process job failed'),
    );
  }

  private async run(id: string, data: D, options: JobOptions): Promise<R> {
    const handler = this.handler;
    if (!handler)
      throw new JobFailedError(this.name, id, 'no processor is registered for this queue');
    const timestamp = Date.now();
    if (options.delay) await this.sleepDelayed(options.delay);
    const attempts = Math.max(1, options.attempts ?? 1);
    for (let attemptsMade = 0; ; attemptsMade++) {
      let discarded = false;
      const job: QueueJob<D> = {
        id,
        data,
        timestamp,
        attemptsMade,
        opts: options,
        discard: () => (discarded = true),
      };
      try {
        return await this.attempt(handler, job);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (discarded || this.closed || attemptsMade + 1 >= attempts) {
          this.failed++;
          throw new JobFailedError(this.name, id, reason);
        }
        await this.sleepDelayed(backoffDelay(options.backoff, attemptsMade + 1));
      }
    }
  }

  /** One attempt in a slot: at most `concurrency` run at once. */
  private async attempt(handler: Handler<D, R>, job: QueueJob<D>): Promise<R> {
    if (this.active < this.concurrency) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const started = performance.now();
    const { timeout } = job.opts;
    let result: R;
    try {
      result = await (timeout
        ? withTimeout(handler(job), timeout, () => new Error(`job timed out after ${timeout} ms`))
        : handler(job));
    } catch (error) {
      this.release();
      this.attemptListener?.(job, 'failed', performance.now() - started, error);
      throw error;
    }
    this.release();
    this.attemptListener?.(job, 'completed', performance.now() - started);
    return result;
  }

  /** Hands the slot to the oldest waiting attempt, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  private async sleepDelayed(ms: number): Promise<void> {
    this.delayed++;
    try {
      await sleep(ms);
    } finally {
      this.delayed--;
    }
  }
}
