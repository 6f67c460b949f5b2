import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { AuditStoreModule } from '../audit/audit-store.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ConfigChangedEvents } from './config-changed-events';
import { EventDelivery } from './event-delivery.service';
import { EventSubscriptionEntity } from './event-subscription.entity';
import { EventSubscriptionRepository } from './event-subscription.repository';
import { TenantEvents } from './tenant-events';

/**
 * What raises and sends tenant events, without the routes: the emitter the modules that notice
 * events import (rollout, inbound context, audit listeners), and the one-attempt sender the
 * jobs, the ping and the replay use.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([EventSubscriptionEntity]),
    ActivityLogModule,
    AuditStoreModule,
    SecretStoreModule,
  ],
  providers: [EventSubscriptionRepository, TenantEvents, EventDelivery, ConfigChangedEvents],
  exports: [EventSubscriptionRepository, TenantEvents, EventDelivery],
})
export class TenantEventsModule {}
