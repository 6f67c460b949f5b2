import { Module } from '@nestjs/common';
import { QueueWorkerModule } from '../../queue/queue-worker.module';
import { ActivityLogModule } from '../activity-log.module';
import { LogRetentionProcessor } from './log-retention.job';
import { LogRetentionScheduler } from './log-retention.scheduler';

/** The `maintenance` queue's consumer and the daily schedule of its retention purge. */
@Module({
  imports: [ActivityLogModule, QueueWorkerModule],
  providers: [LogRetentionProcessor, LogRetentionScheduler],
})
export class ActivityLogJobsModule {}
