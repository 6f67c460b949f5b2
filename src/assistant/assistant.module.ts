import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { ReplicaReads } from '../database/replica-reads';
import { VersionStamps } from '../common/cache/version-stamps';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { InboundMappingRepository } from '../inbound-context/inbound-mapping.repository';
import { ToolRepository } from '../tool/tool.repository';
import { AssistantController } from './assistant.controller';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantVersionService } from './assistant-version.service';
import { AssistantViewCache } from './assistant-view.cache';
import { PublishedVersions } from './published-versions';
import { AssistantEntity } from './assistant.entity';
import { AssistantRepository } from './assistant.repository';
import { AssistantService } from './assistant.service';

@Module({
  // OutboundHttpModule provides the save-time URL guard for `assistant_end_call_url`; imported
  // here so the module also resolves in the worker process. ToolRepository and
  // InboundMappingRepository are provided here too (they need only the DataSource): the tool and
  // inbound-context modules depend on this one, so importing them back would be a module cycle.
  imports: [
    TypeOrmModule.forFeature([AssistantEntity, AssistantVersionEntity]),
    OutboundHttpModule,
    SecretStoreModule,
    AuditStoreModule,
  ],
  controllers: [AssistantController],
  providers: [
    AssistantService,
    AssistantVersionService,
    PublishedVersions,
    ReplicaReads,
    AssistantRepository,
    AssistantViewCache,
    VersionStamps,
    ToolRepository,
    InboundMappingRepository,
  ],
  exports: [
    TypeOrmModule,
    AssistantService,
    AssistantVersionService,
    PublishedVersions,
    AssistantRepository,
  ],
})
export class AssistantModule {}
