import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { AssistantModule } from '../assistant/assistant.module';
import { AuditStoreModule } from '../audit/audit-store.module';
import { CallVersionModule } from '../call-version/call-version.module';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { callSlotsProvider } from '../inbound-policy/call-slots.provider';
import { SecretStoreModule } from '../secret/secret-store.module';
import { CallSlotReleases } from './call-slot-releases';
import { InboundContextLookupService } from './inbound-context-lookup.service';
import { NumberOverflow } from './number-overflow';
import { HealthSubscribers } from './routing/health-subscribers';
import { RoutingBuilder } from './routing/routing-builder';
import { RoutingRecords } from './routing/routing-records';
import { routingStoreProvider } from './routing/routing-store.provider';
import { RoutingTable } from './routing/routing-table';
import { StrategyDryRunService } from './strategy-dry-run.service';
import { StrategyTestController } from './strategy-test.controller';
import { StrategyWebhookClient } from './strategy-webhook.client';

/**
 * The inbound lookup: the routing table (kept in Redis or memory, rebuilt from inbound-context's
 * mappings and strategies), the plan, the strategy webhook, the outcome and its attempts, the
 * strategy's dry run, and the call's slots.
 */
@Module({
  imports: [
    // The mappings and strategies, read through its LookupRepository.
    InboundContextModule,
    AssistantModule,
    // Global once imported anywhere; imported here too so this module stands on its own.
    OutboundHttpModule,
    ActivityLogModule,
    SecretStoreModule,
    AuditStoreModule,
    // The lookup remembers the version each room renders, for the call's later jobs.
    CallVersionModule,
  ],
  controllers: [StrategyTestController],
  providers: [
    InboundContextLookupService,
    StrategyDryRunService,
    StrategyWebhookClient,
    routingStoreProvider,
    RoutingBuilder,
    RoutingRecords,
    RoutingTable,
    callSlotsProvider,
    CallSlotReleases,
    NumberOverflow,
    HealthSubscribers,
  ],
  // RoutingTable: the lookup job's per-owner gate reads a number's owner from it.
  exports: [
    InboundContextLookupService,
    // The MCP tool test_strategy runs the same dry run as POST /inbound_context_strategy/test/:id.
    StrategyDryRunService,
    RoutingTable,
    CallSlotReleases,
    NumberOverflow,
    HealthSubscribers,
  ],
})
export class LookupModule {}
