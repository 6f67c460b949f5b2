import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Not, type Repository } from 'typeorm';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';

/** The mapping a test case's call would reach, and the strategy it runs (null: none). */
export interface CheckStrategy {
  mapping: InboundMappingEntity;
  strategy: InboundContextStrategyEntity | null;
}

/**
 * Which strategy an assistant check plays a test case against: the one of the caller's mapping
 * of the case's `inbound_number`, else the one of the assistant's newest mapping that has a
 * strategy. Reads only; nothing is sent.
 */
@Injectable()
export class CheckStrategies {
  constructor(
    @InjectRepository(InboundMappingEntity)
    private readonly mappings: Repository<InboundMappingEntity>,
    @InjectRepository(InboundContextStrategyEntity)
    private readonly strategies: Repository<InboundContextStrategyEntity>,
  ) {}

  async forCall(
    userId: string,
    assistantId: string,
    inboundNumber: string | null | undefined,
  ): Promise<CheckStrategy | null> {
    const mapping =
      (inboundNumber && (await this.byNumber(userId, inboundNumber))) ||
      (await this.mappings.findOne({
        where: {
          user_id: userId,
          assistant_id: assistantId,
          inbound_context_strategy_id: Not(IsNull()),
        },
        order: { created_at: 'DESC', inbound_id: 'DESC' },
      }));
    if (!mapping) return null;
    const strategyId = mapping.inbound_context_strategy_id;
    const strategy = strategyId
      ? await this.strategies.findOneBy({ strategy_id: strategyId, user_id: userId })
      : null;
    return { mapping, strategy };
  }

  /** The caller's mapping of the number: the active one first, else the newest. */
  private byNumber(userId: string, number: string): Promise<InboundMappingEntity | null> {
    return this.mappings.findOne({
      where: { user_id: userId, phone_number_normalized: normalizePhoneNumber(number) },
      order: { is_active: 'DESC', created_at: 'DESC' },
    });
  }
}
