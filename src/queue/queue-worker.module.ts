import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobHandlers } from './job-handlers';
import { JobTelemetry } from './job-telemetry';

/**
 * What a process that consumes jobs adds to the queues: the boot check that every queue has its
 * handler (in embedded mode, also the hand-over of each handler to its in-process queue) and the
 * per-attempt log line and metrics. Every module's jobs module imports it.
 */
@Module({ imports: [DiscoveryModule], providers: [JobHandlers, JobTelemetry] })
export class QueueWorkerModule {}
