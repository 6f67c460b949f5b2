import { Module } from '@nestjs/common';
import { AssistantModule } from '../assistant/assistant.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolModule } from '../tool/tool.module';
import { AssistantPublishController } from './assistant-publish.controller';
import { AssistantPublishService } from './assistant-publish.service';
import { AssistantRuntimeController } from './assistant-runtime.controller';
import { AssistantRuntimeService } from './assistant-runtime.service';
import { VersionSecretUses } from './version-secret-uses';

/**
 * What needs an assistant and its tools together: `GET /assistant/runtime/:assistant_id` (the view
 * a call worker starts a session from) and `POST /assistant/publish/:assistant_id`.
 */
@Module({
  imports: [AssistantModule, ToolModule, SecretStoreModule],
  controllers: [AssistantRuntimeController, AssistantPublishController],
  providers: [AssistantRuntimeService, AssistantPublishService, VersionSecretUses],
  exports: [AssistantRuntimeService],
})
export class AssistantRuntimeModule {}
