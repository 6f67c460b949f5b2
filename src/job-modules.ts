import { ActivityLogJobsModule } from './activity-log/jobs/activity-log-jobs.module';
import { AssistantJobsModule } from './assistant/jobs/assistant-jobs.module';
import { InboundContextJobsModule } from './inbound-context/jobs/inbound-context-jobs.module';
import { JobTelemetryModule } from './metrics/job-telemetry.module';
import { ToolJobsModule } from './tool/jobs/tool-jobs.module';

/**
 * Each module's jobs (processors and what they need), registered by the module that owns them. A
 * process that consumes the queues imports them all: the worker, and the API process when it runs
 * every role (always in embedded mode), with the telemetry of every attempt. A queue left without
 * its handler fails the boot.
 */
export const JOB_MODULES = [
  InboundContextJobsModule,
  ToolJobsModule,
  AssistantJobsModule,
  ActivityLogJobsModule,
  JobTelemetryModule,
];
