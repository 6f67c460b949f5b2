import { Logger } from '@nestjs/common';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { LogRetentionService, type PurgeResult } from '../log-retention.service';
import { maintenanceContract, type MaintenanceJobData } from './log-retention.job-data';

/** Runs the activity log retention purge (`maintenance` queue, task `purge-activity-logs`). */
@JobProcessor(QUEUES.MAINTENANCE)
export class LogRetentionProcessor implements JobHandler<MaintenanceJobData, PurgeResult> {
  private readonly logger = new Logger(LogRetentionProcessor.name);

  constructor(private readonly retention: LogRetentionService) {}

  async handle(job: QueueJob<MaintenanceJobData>): Promise<PurgeResult> {
    jobData(maintenanceContract, job);
    const result = await this.retention.purge();
    this.logger.log(result, 'log retention run finished');
    return result;
  }
}
