import { ActivityLogModule } from './activity-log/activity-log.module';
import { AssistantModule } from './assistant/assistant.module';
import { AssistantRuntimeModule } from './assistant-runtime/assistant-runtime.module';
import { AuthModule } from './auth/auth.module';
import { InboundContextModule } from './inbound-context/inbound-context.module';
import { ToolModule } from './tool/tool.module';

export const FEATURE_MODULES = [
  AuthModule,
  AssistantModule,
  ToolModule,
  AssistantRuntimeModule,
  InboundContextModule,
  ActivityLogModule,
];
