import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantModule } from '../assistant/assistant.module';
import { AssistantCheckEntity } from './assistant-check.entity';
import { TestCaseController } from './test-case.controller';
import { TestCaseEntity } from './test-case.entity';
import { TestCaseService } from './test-case.service';

/** Safe rollout: an assistant's test cases and the checks that run them. */
@Module({
  imports: [TypeOrmModule.forFeature([TestCaseEntity, AssistantCheckEntity]), AssistantModule],
  controllers: [TestCaseController],
  providers: [TestCaseService],
})
export class RolloutModule {}
