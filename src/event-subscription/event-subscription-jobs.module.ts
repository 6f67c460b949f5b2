import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { redisOrMemoryProvider } from '../common/redis/redis-or-memory.provider';
import { LookupModule } from '../lookup/lookup.module';
import { QueueWorkerModule } from '../queue/queue-worker.module';
import { EndpointHealthStore, LocalEndpointHealth, RedisEndpointHealth } from './endpoint-health';
import { EndpointHealthEvents } from './endpoint-health-events';
import { EventDeliveryProcessor } from './event-delivery.job';
import { HealthSubscribersReading } from './health-subscribers-reading';
import { NumberOverflowEvents } from './number-overflow-events';
import { TenantEventsModule } from './tenant-events.module';

/**
 * The `event-delivery` queue's consumer, and the events noticed where jobs run (an endpoint's
 * health from the lookup entries written, a number's overflow from the lookup); imported only by
 * processes that run jobs.
 */
@Module({
  imports: [TenantEventsModule, QueueWorkerModule, ActivityLogModule, LookupModule],
  providers: [
    EventDeliveryProcessor,
    redisOrMemoryProvider(
      EndpointHealthStore,
      (redis, config) =>
        new RedisEndpointHealth(redis, config.get('queue.prefix', { infer: true })),
      () => new LocalEndpointHealth(),
    ),
    EndpointHealthEvents,
    HealthSubscribersReading,
    NumberOverflowEvents,
  ],
})
export class EventSubscriptionJobsModule {}
