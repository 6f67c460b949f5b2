import { Module } from '@nestjs/common';
import { QueueWorkerModule } from '../queue/queue-worker.module';
import { EventDeliveryProcessor } from './event-delivery.job';
import { TenantEventsModule } from './tenant-events.module';

/** The `event-delivery` queue's consumer; imported only by processes that run jobs. */
@Module({
  imports: [TenantEventsModule, QueueWorkerModule],
  providers: [EventDeliveryProcessor],
})
export class EventSubscriptionJobsModule {}
