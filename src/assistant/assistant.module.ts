import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { ReplicaReads } from '../database/replica-reads';
import { VersionStamps } from '../common/cache/version-stamps';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { AssistantController } from './assistant.controller';
import { AssistantDeletion } from './assistant-deletion';
import { CallEndings } from './call-endings';
import { AssistantSecretUses } from './assistant-secret-uses';
import { AssistantToolEntity } from './assistant-tool.entity';
import { AssistantToolsRepository } from './assistant-tools.repository';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantVersionService } from './assistant-version.service';
import { AssistantViewCache } from './assistant-view.cache';
import { PublishedVersions } from './published-versions';
import { AssistantEntity } from './assistant.entity';
import { AssistantRepository } from './assistant.repository';
import { AssistantService } from './assistant.service';

@Module({
  // OutboundHttpModule provides the save-time URL guard for `assistant_end_call_url`; imported
  // here so the module also resolves in the worker process. The assistant is the bottom feature:
  // tool, inbound-context and assistant-runtime import this module, never the other way round.
  imports: [
    TypeOrmModule.forFeature([AssistantEntity, AssistantVersionEntity, AssistantToolEntity]),
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
    AssistantToolsRepository,
    AssistantDeletion,
    CallEndings,
    AssistantSecretUses,
  ],
  exports: [
    TypeOrmModule,
    AssistantService,
    AssistantVersionService,
    PublishedVersions,
    AssistantRepository,
    AssistantToolsRepository,
    AssistantDeletion,
    CallEndings,
  ],
})
export class AssistantModule {}
