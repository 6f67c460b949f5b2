import { Module } from '@nestjs/common';
import { AuditStoreModule } from '../audit/audit-store.module';
import { LookupModule } from '../lookup/lookup.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { EventSubscriptionController } from './event-subscription.controller';
import { EventSubscriptionService } from './event-subscription.service';
import { HealthSubscribersReading } from './health-subscribers-reading';
import { TenantEventsModule } from './tenant-events.module';

/** Event subscriptions (`/event-subscription/...`): a tenant's own signed webhooks of events. */
@Module({
  imports: [TenantEventsModule, SecretStoreModule, AuditStoreModule, LookupModule],
  controllers: [EventSubscriptionController],
  providers: [EventSubscriptionService, HealthSubscribersReading],
})
export class EventSubscriptionModule {}
