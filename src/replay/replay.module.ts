import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { AssistantModule } from '../assistant/assistant.module';
import { AuthModule } from '../auth/auth.module';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { TenantEventsModule } from '../event-subscription/tenant-events.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolModule } from '../tool/tool.module';
import { ReplayController } from './replay.controller';
import { ReplayService } from './replay.service';

/** `POST /logs/replay/:log_id`: above the modules whose requests it sends again. */
@Module({
  imports: [
    ActivityLogModule,
    AssistantModule,
    ToolModule,
    AuthModule,
    OutboundHttpModule,
    SecretStoreModule,
    TenantEventsModule,
  ],
  controllers: [ReplayController],
  providers: [ReplayService],
})
export class ReplayModule {}
