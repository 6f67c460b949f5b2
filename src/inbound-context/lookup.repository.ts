import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { restoreAssistant, type AssistantSnapshot } from '../assistant/assistant-snapshot';
import type { AssistantRecord } from '../assistant/assistant.repository';
import type { UserRecord } from '../auth/webhook-secrets.service';
import type { InboundContextLookupJobData } from '../contracts/inbound-context-lookup.contract';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';

/** What one lookup resolves: the mapping with its assistant, strategy and owner. */
export interface ResolvedMapping {
  mapping: InboundMappingEntity;
  /** The pinned version's snapshot when the mapping pins one, else the working copy. */
  assistant: AssistantRecord | null;
  /** The version `assistant` comes from; null for the working copy. */
  version: number | null;
  strategy: InboundContextStrategyEntity | null;
  owner: UserRecord | null;
}

type JoinedMapping = InboundMappingEntity & {
  assistant?: AssistantRecord;
  pinned?: { version: number; assistant: AssistantSnapshot };
  strategy?: InboundContextStrategyEntity;
  owner?: UserRecord;
};

/**
 * The inbound lookup's read. It joins tables the assistant and auth modules own (by table name,
 * so no other module's entity class is imported): the call is waiting on this lookup, so it costs
 * one database round trip before the webhook, not one per owner module.
 */
@Injectable()
export class LookupRepository {
  private readonly mappings: Repository<InboundMappingEntity>;

  constructor(dataSource: DataSource) {
    this.mappings = dataSource.getRepository(InboundMappingEntity);
  }

  async resolve(data: InboundContextLookupJobData): Promise<ResolvedMapping | null> {
    const qb = this.mappings
      .createQueryBuilder('m')
      .leftJoinAndMapOne(
        'm.assistant',
        'assistants',
        'a',
        'a.assistant_id = m.assistant_id AND a.user_id = m.user_id',
      )
      .leftJoinAndMapOne(
        'm.strategy',
        'inbound_context_strategies',
        's',
        's.strategy_id = m.inbound_context_strategy_id AND s.user_id = m.user_id',
      )
      .leftJoinAndMapOne(
        'm.pinned',
        'assistant_versions',
        'v',
        'v.assistant_id = m.assistant_id AND v.version = m.assistant_version AND v.user_id = m.user_id',
      )
      .leftJoinAndMapOne('m.owner', 'users', 'u', 'u.user_id = m.user_id');
    if (data.inbound_id) qb.where('m.inbound_id = :id', { id: data.inbound_id });
    else
      qb.where('m.active_phone_number = :number', {
        number: normalizePhoneNumber(data.inbound_number ?? ''),
      });
    const row: JoinedMapping | null = await qb.getOne();
    if (!row) return null;
    const { assistant = null, pinned, strategy = null, owner = null, ...mapping } = row;
    if (assistant && pinned) {
      return {
        mapping,
        assistant: restoreAssistant(pinned.assistant),
        version: Number(pinned.version),
        strategy,
        owner,
      };
    }
    return { mapping, assistant, version: null, strategy, owner };
  }

  /** The user's newest mapping that uses the strategy (the dry run's sample), or null. */
  newestUsing(userId: string, strategyId: string): Promise<InboundMappingEntity | null> {
    return this.mappings.findOne({
      where: { user_id: userId, inbound_context_strategy_id: strategyId },
      order: { created_at: 'DESC' },
    });
  }
}
