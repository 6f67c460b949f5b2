import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobHandlers } from './job-handlers';

/**
 * What a process that consumes jobs adds to the queues: the boot check that every queue has its
 * handler (in embedded mode, also the hand-over of each handler to its in-process queue). Every
 * module's jobs module imports it; the per-attempt telemetry is `JobTelemetryModule` (metrics).
 */
@Module({ imports: [DiscoveryModule], providers: [JobHandlers] })
export class QueueWorkerModule {}
