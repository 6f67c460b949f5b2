import { Module } from '@nestjs/common';
import { FEATURE_MODULES } from './feature-modules';
import { JobTelemetry } from './queue/job-telemetry';
import { WORKER_PROCESSORS } from './worker-processors';

/** The consuming side: feature services plus the processors that call them. */
@Module({
  imports: [...FEATURE_MODULES],
  providers: [...WORKER_PROCESSORS, JobTelemetry],
})
export class JobsModule {}
