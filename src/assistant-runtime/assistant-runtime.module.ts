import { Module } from '@nestjs/common';
import { AssistantModule } from '../assistant/assistant.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolModule } from '../tool/tool.module';
import { AssistantRuntimeController } from './assistant-runtime.controller';
import { AssistantRuntimeService } from './assistant-runtime.service';

/** `GET /assistant/runtime/:assistant_id`: the view a call worker starts a session from. */
@Module({
  imports: [AssistantModule, ToolModule, SecretStoreModule],
  controllers: [AssistantRuntimeController],
  providers: [AssistantRuntimeService],
  exports: [AssistantRuntimeService],
})
export class AssistantRuntimeModule {}
