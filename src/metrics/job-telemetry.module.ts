import { Module } from '@nestjs/common';
import { JobTelemetry } from './job-telemetry';

/** Per-attempt log line and metrics where this process consumes jobs (listed with the jobs modules). */
@Module({ providers: [JobTelemetry] })
export class JobTelemetryModule {}
