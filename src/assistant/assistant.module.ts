import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantEntity } from './assistant.entity';

@Module({
  imports: [TypeOrmModule.forFeature([AssistantEntity])],
  exports: [TypeOrmModule],
})
export class AssistantModule {}
