import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReplicaReads } from '../database/replica-reads';
import { ActivityLogController } from './activity-log.controller';
import { ActivityLogCountEntity } from './activity-log-count.entity';
import { ActivityLogEntity } from './activity-log.entity';
import { ActivityLogRepository } from './activity-log.repository';
import { ActivityLogTargetCountEntity } from './activity-log-target-count.entity';
import { ActivityLogService } from './activity-log.service';
import { LogBatchHooks } from './log-batch-hooks';
import { LogHealthService } from './log-health.service';
import { LogRetentionService } from './log-retention.service';
import { LogWriteRetry } from './log-write-retry';
import { LogWriteTask } from './log-write-task';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      ActivityLogEntity,
      ActivityLogCountEntity,
      ActivityLogTargetCountEntity,
    ]),
  ],
  controllers: [ActivityLogController],
  providers: [
    ActivityLogRepository,
    ActivityLogService,
    LogHealthService,
    LogRetentionService,
    LogWriteRetry,
    LogWriteTask,
    LogBatchHooks,
    ReplicaReads,
  ],
  exports: [ActivityLogService, LogRetentionService, LogBatchHooks],
})
export class ActivityLogModule {}
