import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job } from 'bull';
import { loggableError } from '../common/errors/loggable-error';
import { ALL_QUEUES, type QueueName } from '../contracts/queues';
import { BullJobQueue } from '../queue/bull-job-queue';
import { jobQueueToken, type JobQueue } from '../queue/job-queue';
import { SyncJobQueue } from '../queue/sync-job-queue';
import { MetricsService, type JobOutcome } from './metrics.service';

interface FinishedAttempt {
  queue: QueueName;
  jobId: string | number;
  attempt: number;
  attempts: number;
  durationMs: number;
  outcome: JobOutcome;
  error?: unknown;
}

/**
 * Where this process consumes jobs: one log line and one duration sample per finished attempt,
 * for every queue, whatever the processor. Reads Bull's local `completed`/`failed` events, or
 * the in-process queue's attempt listener, so processors stay free of bookkeeping. The line
 * names the queue, job id, attempt, duration and outcome, and for a failure the error's class and
 * codes (`loggableError`: never its message); never the job's data.
 */
@Injectable()
export class JobTelemetry implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  /** Bull attempts in flight in this process, per queue (Bull's own counts are queue-wide). */
  private readonly running = new Map<QueueName, number>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    for (const name of ALL_QUEUES) {
      const queue = this.moduleRef.get<JobQueue>(jobQueueToken(name), { strict: false });
      if (queue instanceof BullJobQueue) {
        const settle = (delta: number) =>
          this.running.set(name, Math.max(0, (this.running.get(name) ?? 0) + delta));
        queue.queue.on('active', () => settle(1));
        queue.queue.on('completed', (job: Job) => {
          settle(-1);
          this.finished(bullAttempt(name, job, 'completed'));
        });
        queue.queue.on('failed', (job: Job, error: unknown) => {
          settle(-1);
          this.finished(bullAttempt(name, job, 'failed', error));
        });
      } else if (queue instanceof SyncJobQueue) {
        queue.onAttempt((job, outcome, durationMs, error) =>
          this.finished({
            queue: name,
            jobId: job.id,
            attempt: job.attemptsMade + 1,
            attempts: Math.max(1, job.opts.attempts ?? 1),
            durationMs,
            outcome,
            error,
          }),
        );
      }
    }
  }

  /**
   * Names the jobs shutdown waits for, when there are any (the process's own shutdown line has
   * already said that it stops and what it waits for in general).
   */
  beforeApplicationShutdown(): Promise<void> {
    const active = ALL_QUEUES.flatMap((name) => {
      const n = this.runningIn(name);
      return n > 0 ? [`${name}: ${n}`] : [];
    });
    if (active.length) this.logger.log(`Waiting for running jobs to finish (${active.join(', ')})`);
    return Promise.resolve();
  }

  /** Attempts of `name`'s jobs this process has started and not yet finished. */
  private runningIn(name: QueueName): number {
    const queue = this.moduleRef.get<JobQueue>(jobQueueToken(name), { strict: false });
    return queue instanceof SyncJobQueue ? queue.counts().active : (this.running.get(name) ?? 0);
  }

  private finished(attempt: FinishedAttempt): void {
    this.metrics.observeJob(attempt.queue, attempt.outcome, attempt.durationMs / 1000);
    const fields = {
      queue: attempt.queue,
      job_id: String(attempt.jobId),
      attempt: `${attempt.attempt}/${attempt.attempts}`,
      duration_ms: Math.round(attempt.durationMs),
      outcome: attempt.outcome,
    };
    if (attempt.outcome === 'completed') {
      this.logger.log(fields, `job ${attempt.queue} ${fields.job_id} completed`);
      return;
    }
    this.logger.warn(
      { ...fields, err: loggableError(attempt.error) },
      `job ${attempt.queue} ${fields.job_id} failed`,
    );
  }
}

function bullAttempt(
  queue: QueueName,
  job: Job,
  outcome: JobOutcome,
  error?: unknown,
): FinishedAttempt {
  const end = job.finishedOn ?? Date.now();
  return {
    queue,
    jobId: job.id,
    // Bull counts the failed attempt before emitting `failed`, not before `completed`.
    attempt: outcome === 'failed' ? job.attemptsMade : job.attemptsMade + 1,
    attempts: Math.max(1, job.opts.attempts ?? 1),
    durationMs: job.processedOn ? Math.max(0, end - job.processedOn) : 0,
    outcome,
    error,
  };
}
