import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { loggableError } from '../../common/errors/loggable-error';
import { QUEUE_SETTINGS, QUEUES } from '../../contracts/queues';
import { InjectJobQueue } from '../../queue/inject-job-queue';
import type { JobQueue } from '../../queue/job-queue';
import { LOG_RETENTION_JOB_DATA, type MaintenanceJobData } from './log-retention.job-data';

/**
 * Schedules the daily retention purge when a consuming process starts. On Redis it is a Bull
 * repeatable job: the same cron and job id from every worker make one schedule, not one per
 * process, and it survives restarts. In embedded mode the in-process queue runs it once a day.
 */
@Injectable()
export class LogRetentionScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(LogRetentionScheduler.name);

  constructor(
    @InjectJobQueue(QUEUES.MAINTENANCE) private readonly queue: JobQueue<MaintenanceJobData>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.queue.add(LOG_RETENTION_JOB_DATA, {
        ...QUEUE_SETTINGS[QUEUES.MAINTENANCE].options,
      });
    } catch (error) {
      // A worker that cannot reach Redis still serves the other queues once it is back; the
      // next start schedules the purge.
      this.logger.warn(
        { err: loggableError(error) },
        'could not schedule the activity log retention purge',
      );
    }
  }
}
