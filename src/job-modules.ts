import { AssistantJobsModule } from './assistant/jobs/assistant-jobs.module';
import { AuditModule } from './audit/audit.module';
import { EventSubscriptionJobsModule } from './event-subscription/event-subscription-jobs.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { LookupJobsModule } from './lookup/jobs/lookup-jobs.module';
import { JobTelemetryModule } from './metrics/job-telemetry.module';
import { MaintenanceModule } from './queue/maintenance.module';
import { RolloutJobsModule } from './rollout/rollout-jobs.module';
import { ToolJobsModule } from './tool/jobs/tool-jobs.module';

/**
 * Each module's jobs (processors and what they need), registered by the module that owns them. A
 * process that consumes the queues imports them all: the worker, and the API process when it runs
 * every role (always in embedded mode), with the telemetry of every attempt. A queue left without
 * its handler fails the boot. The `maintenance` queue's tasks are registered by the modules that
 * own them (the activity log's through the jobs modules above; the audit and idempotency purges
 * through their modules, imported here for the worker), and a task left unregistered fails it too.
 */
export const JOB_MODULES = [
  LookupJobsModule,
  ToolJobsModule,
  AssistantJobsModule,
  RolloutJobsModule,
  EventSubscriptionJobsModule,
  MaintenanceModule,
  AuditModule,
  IdempotencyModule,
  JobTelemetryModule,
];
