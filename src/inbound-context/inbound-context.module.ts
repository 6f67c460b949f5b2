import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { CallVersionModule } from '../call-version/call-version.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { AssistantModule } from '../assistant/assistant.module';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { callSlotsProvider } from '../inbound-policy/call-slots.provider';
import { AssistantDeletedHandler } from './assistant-deleted.handler';
import { CallSlotReleases } from './call-slot-releases';
import { CheckStrategies } from './check-strategies';
import { NumberOverflow } from './number-overflow';
import { ProductionGate } from './production-gate';
import { SplitReverts } from './split-reverts';
import { InboundContextLookupService } from './inbound-context-lookup.service';
import { InboundContextStrategyController } from './inbound-context-strategy.controller';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundContextStrategyService } from './inbound-context-strategy.service';
import { InboundMappingController } from './inbound-mapping.controller';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { InboundPolicyChecks } from './inbound-policy-checks';
import { InboundMappingService } from './inbound-mapping.service';
import { LookupRepository } from './lookup.repository';
import { RoutingBuilder } from './routing/routing-builder';
import { HealthSubscribers } from './routing/health-subscribers';
import { RoutingRecords } from './routing/routing-records';
import { routingStoreProvider } from './routing/routing-store.provider';
import { RoutingTable } from './routing/routing-table';
import { PhoneNumberAdminController } from './phone-number-admin.controller';
import { PhoneNumberHolderEntity } from './phone-number-holder.entity';
import { PhoneNumberHolders } from './phone-number-holders';
import { StrategyDryRunService } from './strategy-dry-run.service';
import { StrategySecretUses } from './strategy-secret-uses';
import { StrategyWebhookClient } from './strategy-webhook.client';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      InboundContextStrategyEntity,
      InboundMappingEntity,
      PhoneNumberHolderEntity,
    ]),
    // Ownership and version checks, the lookup's AssistantRepository reads, and AssistantDeletion.
    AssistantModule,
    // Global once imported anywhere; imported here too so this module stands on its own.
    OutboundHttpModule,
    ActivityLogModule,
    SecretStoreModule,
    AuditStoreModule,
    // The lookup remembers the version each room renders, for the call's later jobs.
    CallVersionModule,
  ],
  controllers: [
    InboundContextStrategyController,
    InboundMappingController,
    PhoneNumberAdminController,
  ],
  providers: [
    InboundContextStrategyService,
    InboundMappingService,
    InboundPolicyChecks,
    PhoneNumberHolders,
    InboundContextLookupService,
    StrategyDryRunService,
    StrategyWebhookClient,
    LookupRepository,
    AssistantDeletedHandler,
    StrategySecretUses,
    routingStoreProvider,
    RoutingBuilder,
    RoutingRecords,
    RoutingTable,
    CheckStrategies,
    ProductionGate,
    SplitReverts,
    callSlotsProvider,
    CallSlotReleases,
    NumberOverflow,
    HealthSubscribers,
  ],
  // RoutingTable: the lookup job's per-owner gate reads a number's owner from it.
  exports: [
    TypeOrmModule,
    InboundContextLookupService,
    InboundContextStrategyService,
    // The MCP tool test_strategy runs the same dry run as POST /inbound_context_strategy/test/:id.
    StrategyDryRunService,
    RoutingTable,
    InboundMappingService,
    CheckStrategies,
    ProductionGate,
    SplitReverts,
    CallSlotReleases,
    NumberOverflow,
    HealthSubscribers,
  ],
})
export class InboundContextModule {}
