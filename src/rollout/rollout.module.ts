import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantModule } from '../assistant/assistant.module';
import { TenantEventsModule } from '../event-subscription/tenant-events.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { SecretStoreModule } from '../secret/secret-store.module';
import { ToolModule } from '../tool/tool.module';
import { AssistantCheckEntity } from './assistant-check.entity';
import { TestCasesDeletedHandler } from './assistant-deleted.handler';
import { CheckController } from './check.controller';
import { CheckService } from './check.service';
import { TestCaseController } from './test-case.controller';
import { TestCaseEntity } from './test-case.entity';
import { TestCaseService } from './test-case.service';

/** Safe rollout: an assistant's test cases and the checks that run them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([TestCaseEntity, AssistantCheckEntity]),
    AssistantModule,
    ToolModule,
    InboundContextModule,
    SecretStoreModule,
    TenantEventsModule,
  ],
  controllers: [TestCaseController, CheckController],
  providers: [TestCaseService, CheckService, TestCasesDeletedHandler],
})
export class RolloutModule {}
