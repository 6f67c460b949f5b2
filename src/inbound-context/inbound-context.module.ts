import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { AssistantModule } from '../assistant/assistant.module';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { AssistantDeletedHandler } from './assistant-deleted.handler';
import { CheckStrategies } from './check-strategies';
import { ProductionGate } from './production-gate';
import { SplitReverts } from './split-reverts';
import { InboundContextStrategyController } from './inbound-context-strategy.controller';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundContextStrategyService } from './inbound-context-strategy.service';
import { InboundMappingController } from './inbound-mapping.controller';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { InboundPolicyChecks } from './inbound-policy-checks';
import { InboundMappingService } from './inbound-mapping.service';
import { LookupRepository } from './lookup.repository';
import { PhoneNumberAdminController } from './phone-number-admin.controller';
import { PhoneNumberHolderEntity } from './phone-number-holder.entity';
import { PhoneNumberHolders } from './phone-number-holders';
import { StrategySecretUses } from './strategy-secret-uses';

/** Strategies, mappings and numbers: the configuration an inbound call is routed by. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      InboundContextStrategyEntity,
      InboundMappingEntity,
      PhoneNumberHolderEntity,
    ]),
    // Ownership and version checks, the lookup's AssistantRepository reads, and AssistantDeletion.
    AssistantModule,
    // Global once imported anywhere; imported here too so this module stands on its own (UrlGuard).
    OutboundHttpModule,
    SecretStoreModule,
    AuditStoreModule,
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
    LookupRepository,
    AssistantDeletedHandler,
    StrategySecretUses,
    CheckStrategies,
    ProductionGate,
    SplitReverts,
  ],
  // LookupRepository: the lookup module's read of mappings and strategies (these tables are this module's).
  exports: [
    TypeOrmModule,
    InboundContextStrategyService,
    LookupRepository,
    InboundMappingService,
    CheckStrategies,
    ProductionGate,
    SplitReverts,
  ],
})
export class InboundContextModule {}
