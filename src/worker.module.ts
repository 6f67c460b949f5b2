import { Module } from '@nestjs/common';
import { ActivityLogJobsModule } from './activity-log/jobs/activity-log-jobs.module';
import { AssistantJobsModule } from './assistant/jobs/assistant-jobs.module';
import { CoreModule } from './core.module';
import { InboundContextJobsModule } from './inbound-context/jobs/inbound-context-jobs.module';
import { MetricsServer } from './metrics/metrics-server';
import { ToolJobsModule } from './tool/jobs/tool-jobs.module';

/**
 * Each module's jobs (processors and what they need), registered by the module that owns them. A
 * process that consumes the queues imports them all: the worker, and the API process when it runs
 * every role (always in embedded mode). A queue left without its handler fails the boot.
 */
export const JOB_MODULES = [
  InboundContextJobsModule,
  ToolJobsModule,
  AssistantJobsModule,
  ActivityLogJobsModule,
];

/** The worker process: infrastructure and every module's jobs, no HTTP. */
@Module({ imports: [CoreModule.forRoot(), ...JOB_MODULES], providers: [MetricsServer] })
export class WorkerModule {}
