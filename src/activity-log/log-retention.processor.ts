import { Process } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import { LogRetentionService, type PurgeResult } from './log-retention.service';

export const LOG_RETENTION_TASK = 'purge-activity-logs';

export interface MaintenanceJobData {
  task: typeof LOG_RETENTION_TASK;
}

/** Daily at 03:00 UTC; the fixed job id keeps one schedule however many processes start. */
export const LOG_RETENTION_JOB_OPTIONS = {
  jobId: 'log-retention',
  repeat: { cron: '0 3 * * *', tz: 'UTC' },
  attempts: 3,
  backoff: { type: 'exponential', delay: 60_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 100 },
  removeOnFail: { age: 30 * 24 * 3600, count: 100 },
} as const;

export const LOG_RETENTION_JOB_DATA: MaintenanceJobData = { task: LOG_RETENTION_TASK };

/** Runs the activity log retention purge (`maintenance` queue, task `purge-activity-logs`). */
@JobProcessor(QUEUES.MAINTENANCE)
export class LogRetentionProcessor implements JobHandler<MaintenanceJobData, PurgeResult> {
  private readonly logger = new Logger(LogRetentionProcessor.name);

  constructor(private readonly retention: LogRetentionService) {}

  @Process({ concurrency: 1 })
  async handle(job: QueueJob<MaintenanceJobData>): Promise<PurgeResult> {
    const task = (job.data as { task?: unknown } | null)?.task;
    if (task !== LOG_RETENTION_TASK) {
      job.discard();
      throw new Error(`unknown maintenance task: ${JSON.stringify(task ?? null)}`);
    }
    const result = await this.retention.purge();
    this.logger.log(result, 'log retention run finished');
    return result;
  }
}
