import { Module } from '@nestjs/common';
import { AuditStoreModule } from '../audit/audit-store.module';
import { AssistantModule } from '../assistant/assistant.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { ToolModule } from '../tool/tool.module';
import { SecretStoreModule } from './secret-store.module';
import { SecretUsage } from './secret-usage';
import { SecretController } from './secret.controller';
import { SecretService } from './secret.service';

/** The `/secret` routes. `used_by` reads the tools, strategies and assistants through their modules. */
@Module({
  imports: [SecretStoreModule, AuditStoreModule, ToolModule, InboundContextModule, AssistantModule],
  controllers: [SecretController],
  providers: [SecretService, SecretUsage],
})
export class SecretModule {}
