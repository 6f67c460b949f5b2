import { Module } from '@nestjs/common';
import { CoreModule } from './core.module';
import { JobsModule } from './jobs.module';
import { MetricsServer } from './metrics/metrics-server';

/** The worker process: infrastructure and processors, no HTTP. */
@Module({ imports: [CoreModule.forRoot(), JobsModule], providers: [MetricsServer] })
export class WorkerModule {}
