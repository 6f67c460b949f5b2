import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantToolEntity } from './assistant-tool.entity';
import { ToolEntity } from './tool.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ToolEntity, AssistantToolEntity])],
  exports: [TypeOrmModule],
})
export class ToolModule {}
