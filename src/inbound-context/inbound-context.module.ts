import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';

@Module({
  imports: [TypeOrmModule.forFeature([InboundContextStrategyEntity, InboundMappingEntity])],
  exports: [TypeOrmModule],
})
export class InboundContextModule {}
