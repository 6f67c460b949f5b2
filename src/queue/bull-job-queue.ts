import { randomUUID } from 'node:crypto';
import type { JobOptions, Queue } from 'bull';
import { sleep, withTimeout } from '../common/time/with-timeout';
import { DEFAULT_JOB_OPTIONS, type QueueName } from '../contracts/queues';
import {
  JobFailedError,
  JobWaitTimeoutError,
  QueueUnavailableError,
  type JobQueue,
  type RequestOptions,
} from './job-queue';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** How long `add` may take before the producer is told the queue is unavailable (Redis down). */
const ADD_TIMEOUT_MS = 2000;
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1000;

/**
 * A Bull queue with a result channel that does not lose results. Bare `job.finished()` misses
 * the completion event for a few percent of fast jobs, so this listens for `global:completed` /
 * `global:failed` once, registers each job id before `add()`, and polls the job itself on a
 * backing-off schedule in case the event never arrives. Usable inside Nest and standalone (the
 * call stack's producer client builds one from a plain Bull queue).
 */
export class BullJobQueue<D = unknown, R = unknown> implements JobQueue<D, R> {
  private readonly pending = new Map<string, Pending>();
  private listening = false;

  constructor(
    readonly queue: Queue<D>,
    private readonly addTimeoutMs = ADD_TIMEOUT_MS,
  ) {}

  get name(): QueueName {
    return this.queue.name as QueueName;
  }

  add(data: D, options: JobOptions = {}): Promise<string> {
    return this.addWithin(data, options, this.addTimeoutMs);
  }

  /**
   * While Redis is down, ioredis keeps the add queued and sends it on reconnect, so an add that
   * "failed" may still run later. `request` therefore gives the add its whole wait: the job can
   * only arrive while the producer still waits, and a job that carries its producer's deadline
   * (e.g. the lookup's `deadline_at`) is reported as expired if it is picked up after it.
   */
  private async addWithin(data: D, options: JobOptions, timeoutMs: number): Promise<string> {
    try {
      const job = await withTimeout(
        this.queue.add(data, { ...DEFAULT_JOB_OPTIONS, ...options }),
        timeoutMs,
        () => new QueueUnavailableError(this.name, `add did not complete within ${timeoutMs} ms`),
      );
      return String(job.id);
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw error;
      throw new QueueUnavailableError(
        this.name,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  async request(data: D, { waitMs, ...options }: RequestOptions): Promise<R> {
    this.listen();
    const jobId = String(options.jobId ?? randomUUID());
    const deadline = Date.now() + waitMs;
    let settled = false;
    const result = new Promise<R>((resolve, reject) => {
      this.pending.set(jobId, { resolve: resolve as (v: unknown) => void, reject });
    });
    try {
      await this.addWithin(data, { ...options, jobId }, waitMs);
      const outcome = await withTimeout(
        Promise.race([result, this.pollUntilFinished(jobId, deadline, () => settled)]),
        deadline - Date.now(),
        () => new JobWaitTimeoutError(this.name, jobId, waitMs),
      );
      return outcome;
    } catch (error) {
      if (error instanceof JobWaitTimeoutError) {
        const late = await this.readFinished(jobId).catch(() => undefined);
        if (late?.state === 'completed') return late.value as R;
      }
      throw error;
    } finally {
      settled = true;
      this.pending.delete(jobId);
    }
  }

  /** Subscribes to the queue's global events once; Bull opens its subscriber connection lazily. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    void this.queue.on('global:completed', (jobId: string | number, raw: string) => {
      this.pending.get(String(jobId))?.resolve(parseReturnValue(raw));
    });
    void this.queue.on('global:failed', (jobId: string | number, reason: string) => {
      const pending = this.pending.get(String(jobId));
      if (!pending) return;
      // A failure with attempts left is followed by a retry; only the final state counts.
      void this.readFinished(String(jobId))
        .then((finished) => {
          if (finished?.state === 'failed')
            pending.reject(new JobFailedError(this.name, String(jobId), reason));
        })
        .catch(() => undefined);
    });
  }

  private async pollUntilFinished(
    jobId: string,
    deadline: number,
    stop: () => boolean,
  ): Promise<R> {
    let interval = FIRST_POLL_MS;
    for (;;) {
      await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
      if (stop() || Date.now() >= deadline) return new Promise<R>(() => undefined);
      const finished = await this.readFinished(jobId).catch(() => undefined);
      if (finished?.state === 'completed') return finished.value as R;
      if (finished?.state === 'failed') throw new JobFailedError(this.name, jobId, finished.reason);
      interval = Math.min(interval * 2, MAX_POLL_MS);
    }
  }

  private async readFinished(
    jobId: string,
  ): Promise<
    { state: 'completed'; value: unknown } | { state: 'failed'; reason: string } | undefined
  > {
    const job = await this.queue.getJob(jobId);
    if (!job?.finishedOn) return undefined;
    const state = await job.getState();
    if (state === 'completed') return { state, value: job.returnvalue };
    if (state === 'failed') return { state, reason: job.failedReason ?? 'failed' };
    return undefined;
  }
}

function parseReturnValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
