import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantEntity } from '../assistant/assistant.entity';
import { OutboundHttpModule } from '../common/http/outbound-http.module';
import { AssistantToolEntity } from './assistant-tool.entity';
import { ToolController } from './tool.controller';
import { ToolEntity } from './tool.entity';
import { ToolService } from './tool.service';

@Module({
  // AssistantEntity for the ownership check on attach/detach (read directly, so the assistant
  // module can depend on this one without a cycle); OutboundHttpModule for the save-time URL guard.
  imports: [
    TypeOrmModule.forFeature([ToolEntity, AssistantToolEntity, AssistantEntity]),
    OutboundHttpModule,
  ],
  controllers: [ToolController],
  providers: [ToolService],
  exports: [TypeOrmModule, ToolService],
})
export class ToolModule {}
