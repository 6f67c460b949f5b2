import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type Repository, type SelectQueryBuilder } from 'typeorm';
import { restoreAssistant, type AssistantSnapshot } from '../assistant/assistant-snapshot';
import { PublishedVersions } from '../assistant/published-versions';
import type { AssistantEntity } from '../assistant/assistant.entity';
import type { UserEntity } from '../auth/user.entity';
import type { InboundContextLookupJobData } from '../contracts/inbound-context-lookup.contract';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';

/** What one lookup resolves: the mapping with its assistant, strategy and owner. */
export interface ResolvedMapping {
  mapping: InboundMappingEntity;
  /** The pinned version's snapshot when the mapping pins one, else the working copy. */
  assistant: AssistantEntity | null;
  /** The version `assistant` comes from; null for the working copy. */
  version: number | null;
  strategy: InboundContextStrategyEntity | null;
  owner: UserEntity | null;
  /** With a traffic split: each arm's assistant as it renders (the working copy for a null version). */
  variants?: VariantArm[] | null;
}

/** One arm of the mapping's split, resolved: null `assistant` when its version is gone. */
export interface VariantArm {
  assistant_version: number | null;
  weight: number;
  assistant: AssistantEntity | null;
}

type JoinedMapping = InboundMappingEntity & {
  assistant?: AssistantEntity;
  pinned?: { version: number; assistant: AssistantSnapshot };
  strategy?: InboundContextStrategyEntity;
  owner?: UserEntity;
};

/**
 * The inbound lookup's read. It joins tables the assistant and auth modules own (by table name,
 * so no other module's entity class is imported): the call is waiting on this lookup, so it costs
 * one database round trip before the webhook, not one per owner module (a mapping with a traffic
 * split costs a second one, for its versions; both are cached by LookupCache).
 */
@Injectable()
export class LookupRepository {
  private readonly mappings: Repository<InboundMappingEntity>;

  constructor(
    dataSource: DataSource,
    private readonly published: PublishedVersions,
  ) {
    this.mappings = dataSource.getRepository(InboundMappingEntity);
  }

  async resolve(data: InboundContextLookupJobData): Promise<ResolvedMapping | null> {
    const qb = this.joined(this.mappings.createQueryBuilder('m'));
    if (data.inbound_id) qb.where('m.inbound_id = :id', { id: data.inbound_id });
    else
      qb.where('m.active_phone_number = :number', {
        number: normalizePhoneNumber(data.inbound_number ?? ''),
      });
    const row: JoinedMapping | null = await qb.getOne();
    return row ? this.toResolved(row) : null;
  }

  /**
   * Every mapping of `userIds` (of every user when null) resolved as a lookup resolves it, read
   * through `manager` (the routing rebuild's connection, on the primary), versions included.
   */
  async resolveAll(
    userIds: readonly string[] | null,
    manager: EntityManager,
  ): Promise<ResolvedMapping[]> {
    if (userIds?.length === 0) return [];
    const qb = this.joined(manager.createQueryBuilder(InboundMappingEntity, 'm'));
    if (userIds) qb.where('m.user_id IN (:...userIds)', { userIds });
    const rows: JoinedMapping[] = await qb.orderBy('m.created_at', 'ASC').getMany();
    const resolved: ResolvedMapping[] = [];
    for (const row of rows) resolved.push(await this.toResolved(row, manager));
    return resolved;
  }

  private joined(
    qb: SelectQueryBuilder<InboundMappingEntity>,
  ): SelectQueryBuilder<InboundMappingEntity> {
    return qb
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
  }

  private async toResolved(row: JoinedMapping, manager?: EntityManager): Promise<ResolvedMapping> {
    const { assistant = null, pinned, strategy = null, owner = null, ...mapping } = row;
    if (assistant && mapping.assistant_variants?.length) {
      const variants = await this.variantArms(mapping, assistant, manager);
      return { mapping, assistant, version: null, strategy, owner, variants };
    }
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

  /** The split's arms with their versions' snapshots, read in one query (a split has at most 5). */
  private async variantArms(
    mapping: InboundMappingEntity,
    assistant: AssistantEntity,
    manager?: EntityManager,
  ): Promise<VariantArm[]> {
    const arms = mapping.assistant_variants ?? [];
    const numbers = arms.flatMap((arm) =>
      arm.assistant_version === null ? [] : [arm.assistant_version],
    );
    const found = manager
      ? await versionsThrough(manager, mapping.user_id, assistant.assistant_id, numbers)
      : await this.published.findMany(mapping.user_id, assistant.assistant_id, numbers);
    const byNumber = new Map(found.map((v) => [v.version, v.assistant]));
    return arms.map((arm) => {
      const { assistant_version: version, weight } = arm;
      const armAssistant = version === null ? assistant : (byNumber.get(version) ?? null);
      return { assistant_version: version, weight, assistant: armAssistant };
    });
  }

  /** The user's newest mapping that uses the strategy (the dry run's sample), or null. */
  newestUsing(userId: string, strategyId: string): Promise<InboundMappingEntity | null> {
    return this.mappings.findOne({
      where: { user_id: userId, inbound_context_strategy_id: strategyId },
      order: { created_at: 'DESC' },
    });
  }
}

/** `PublishedVersions.findMany` through `manager` (by table name: the assistant module's table). */
async function versionsThrough(
  manager: EntityManager,
  userId: string,
  assistantId: string,
  numbers: number[],
): Promise<{ version: number; assistant: AssistantEntity }[]> {
  if (!numbers.length) return [];
  const rows = await manager
    .createQueryBuilder()
    .select(['v.version AS version', 'v.assistant AS assistant'])
    .from('assistant_versions', 'v')
    .where('v.user_id = :userId AND v.assistant_id = :assistantId', { userId, assistantId })
    .andWhere('v.version IN (:...numbers)', { numbers })
    .getRawMany<{ version: number | string; assistant: AssistantSnapshot | string }>();
  return rows.map((row) => ({
    version: Number(row.version),
    assistant: restoreAssistant(
      typeof row.assistant === 'string'
        ? (JSON.parse(row.assistant) as AssistantSnapshot)
        : row.assistant,
    ),
  }));
}
