import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { AssistantModule } from '../assistant/assistant.module';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolSecretUses } from './tool-secret-uses';
import { ToolController } from './tool.controller';
import { ToolEntity } from './tool.entity';
import { ToolRepository } from './tool.repository';
import { ToolService } from './tool.service';

@Module({
  // AssistantModule for the assistant row locks on attach/detach/rename (AssistantRepository) and
  // the attachments, which belong to the assistant (AssistantToolsRepository);
  // OutboundHttpModule for the save-time URL guard.
  imports: [
    TypeOrmModule.forFeature([ToolEntity]),
    AssistantModule,
    OutboundHttpModule,
    SecretStoreModule,
    AuditStoreModule,
  ],
  controllers: [ToolController],
  providers: [ToolService, ToolRepository, ToolSecretUses],
  exports: [TypeOrmModule, ToolService, ToolRepository],
})
export class ToolModule {}
