import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Logger } from '@nestjs/common';
import type { JobOptions } from 'bull';
import { loggableError } from '../common/errors/loggable-error';
import { sleep, withTimeout } from '../common/time/with-timeout';
import type { QueueName } from '../contracts/queues';
import {
  backoffDelay,
  JobFailedError,
  JobWaitTimeoutError,
  type JobQueue,
  type QueueJob,
  type RequestOptions,
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

/**
 * The embedded-mode queue: runs each job in this process as soon as it is added, with `delay`,
 * `attempts` with `backoff`, `discard()`, and a recent `jobId` run once (adding it again is a
 * no-op; `request` gets the kept result). A `repeat` job runs every `repeat.every` ms (a cron one
 * once a day from the start). The run timeout is the handler's own (`OwnerGate`), as on Redis.
 * What it does not emulate is in docs/operations.md ("Embedded mode").
 */
export class SyncJobQueue<D = unknown, R = unknown> implements JobQueue<D, R> {
  private readonly logger: Logger;
  private handler?: Handler<D, R>;
  private attemptListener?: AttemptListener;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly running = { active: 0, delayed: 0, failed: 0 };
  /** Bounded by count (results hold rendered prompts) and age, as Bull's kept jobs are. */
  private readonly recent = new LRUCache<string, Promise<R>>({ max: 1_000, ttl: 3600_000 });

  constructor(readonly name: QueueName) {
    this.logger = new Logger(`SyncQueue:${name}`);
  }

  attach(handler: Handler<D, R>): void {
    this.handler = handler;
  }

  onAttempt(listener: AttemptListener): void {
    this.attemptListener = listener;
  }

  /** Jobs running, sleeping before a (re)try, and failed since start; none waits for a slot. */
  counts(): { waiting: number; active: number; delayed: number; failed: number } {
    return { waiting: 0, ...this.running };
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
    const result = this.recent.get(id) ?? this.run(id, data, options);
    return withTimeout(result, waitMs, () => new JobWaitTimeoutError(this.name, id, waitMs));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }

  private runInBackground(id: string, data: D, options: JobOptions): void {
    this.run(id, data, options).catch((error: unknown) =>
      this.logger.warn({ job_id: id, err: loggableError(error) }, 'in-process job failed'),
    );
  }

  private run(id: string, data: D, options: JobOptions): Promise<R> {
    const result = this.attempts(id, data, options);
    this.recent.set(id, result);
    return result;
  }

  private async attempts(id: string, data: D, options: JobOptions): Promise<R> {
    const handler = this.handler;
    if (!handler)
      throw new JobFailedError(this.name, id, 'no processor is registered for this queue');
    const timestamp = Date.now();
    if (options.delay) await this.sleepDelayed(options.delay);
    for (let attemptsMade = 0; ; attemptsMade++) {
      let discarded = false;
      const discard = () => (discarded = true);
      const job: QueueJob<D> = { id, data, timestamp, attemptsMade, opts: options, discard };
      const started = performance.now();
      this.running.active++;
      let result: R;
      try {
        result = await handler(job);
      } catch (error) {
        this.settled(job, started, 'failed', error);
        if (discarded || this.closed || attemptsMade + 1 >= (options.attempts ?? 1)) {
          this.running.failed++;
          const reason = error instanceof Error ? error.message : String(error);
          throw new JobFailedError(this.name, id, reason);
        }
        await this.sleepDelayed(backoffDelay(options.backoff, attemptsMade + 1));
        continue;
      }
      this.settled(job, started, 'completed');
      return result;
    }
  }

  private settled(
    job: QueueJob<D>,
    started: number,
    outcome: 'completed' | 'failed',
    error?: unknown,
  ) {
    this.running.active--;
    this.attemptListener?.(job, outcome, performance.now() - started, error);
  }

  private async sleepDelayed(ms: number): Promise<void> {
    this.running.delayed++;
    try {
      await sleep(ms);
    } finally {
      this.running.delayed--;
    }
  }
}
