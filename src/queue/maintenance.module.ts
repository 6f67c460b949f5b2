import { Module } from '@nestjs/common';
import { MaintenanceProcessor } from './maintenance';
import { QueueWorkerModule } from './queue-worker.module';

/** The `maintenance` queue's one consumer; its tasks are registered by the modules that own them. */
@Module({ imports: [QueueWorkerModule], providers: [MaintenanceProcessor] })
export class MaintenanceModule {}
