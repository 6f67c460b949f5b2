import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { AssistantController } from './assistant.controller';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantVersionService } from './assistant-version.service';
import { AssistantEntity } from './assistant.entity';
import { AssistantService } from './assistant.service';

@Module({
  // OutboundHttpModule provides the save-time URL guard for `assistant_end_call_url`; imported
  // here so the module also resolves in the worker process.
  imports: [
    TypeOrmModule.forFeature([AssistantEntity, AssistantVersionEntity]),
    OutboundHttpModule,
  ],
  controllers: [AssistantController],
  providers: [AssistantService, AssistantVersionService],
  exports: [TypeOrmModule, AssistantService, AssistantVersionService],
})
export class AssistantModule {}
