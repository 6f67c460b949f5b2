import { Module } from '@nestjs/common';
import { AssistantModule } from '../assistant/assistant.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolModule } from '../tool/tool.module';
import { ConfigBundleController } from './config-bundle.controller';
import { ConfigApplySteps } from './config-apply-steps';
import { ConfigApplyService } from './config-apply.service';
import { ConfigExportService } from './config-export.service';
import { ConfigPlanService } from './config-plan.service';

/**
 * Configuration as code: one tenant's assistants, tools, strategies and mappings as a bundle, read
 * through each module's own services. It reads every feature, so it stands above them all.
 */
@Module({
  imports: [AssistantModule, ToolModule, InboundContextModule, SecretStoreModule],
  controllers: [ConfigBundleController],
  providers: [ConfigExportService, ConfigPlanService, ConfigApplyService, ConfigApplySteps],
  exports: [ConfigExportService, ConfigPlanService, ConfigApplyService],
})
export class ConfigBundleModule {}
