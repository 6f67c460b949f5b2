import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobHandlers } from './job-handlers';
import { OwnerGate } from './owner-gate';

/**
 * What a process that consumes jobs adds to the queues: the boot check that every queue has its
 * handler (in embedded mode, also the hand-over of each handler to its in-process queue) and the
 * per-owner gate of the handlers (`OwnerGate`, one per process). Every
 * module's jobs module imports it; the per-attempt telemetry is `JobTelemetryModule` (metrics).
 */
@Module({ imports: [DiscoveryModule], providers: [JobHandlers, OwnerGate], exports: [OwnerGate] })
export class QueueWorkerModule {}
