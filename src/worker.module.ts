import { Module } from '@nestjs/common';
import { CoreModule } from './core.module';
import { JobsModule } from './jobs.module';

/** The worker process: infrastructure and processors, no HTTP. */
@Module({ imports: [CoreModule.forRoot(), JobsModule] })
export class WorkerModule {}
