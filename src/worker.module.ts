import { Module } from '@nestjs/common';
import { CoreModule } from './core.module';
import { JOB_MODULES } from './job-modules';
import { MetricsServer } from './metrics/metrics-server';

/** The worker process: infrastructure and every module's jobs, no HTTP. */
@Module({
  imports: [CoreModule.forRoot({ databaseMayBeDown: true }), ...JOB_MODULES],
  providers: [MetricsServer],
})
export class WorkerModule {}
