import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type Repository, type SelectQueryBuilder } from 'typeorm';
import { restoreAssistant, type AssistantSnapshot } from '../assistant/assistant-snapshot';
import { AssistantRepository } from '../assistant/assistant.repository';
import { PublishedVersions } from '../assistant/published-versions';
import type { AssistantEntity } from '../assistant/assistant.entity';
import type { UserEntity } from '../auth/user.entity';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import type { InboundContextLookupJobData } from '../contracts/inbound-context-lookup.contract';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
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
  /** The assistant's working copy, also when a version is pinned (what the routing table keeps). */
  working?: AssistantEntity | null;
  /** The assistants the policy's actions name, by `policyAssistantKey` (null: gone). */
  policyAssistants?: Map<string, AssistantEntity | null>;
}

/** How `ResolvedMapping.policyAssistants` names an assistant: its id and version (`w`: the working copy). */
export const policyAssistantKey = (assistantId: string, version: number | null | undefined) =>
  `${assistantId}:${version ?? 'w'}`;

/** The assistants (and versions) a policy's `closed` and `overflow` actions name. */
export function policyAssistantsOf(
  mapping: Pick<InboundMappingEntity, 'policy'>,
): [string, number | null][] {
  const named = new Map<string, [string, number | null]>();
  for (const action of [mapping.policy?.closed, mapping.policy?.overflow])
    if (action?.action === 'assistant' && action.assistant_id) {
      const version = action.assistant_version ?? null;
      named.set(policyAssistantKey(action.assistant_id, version), [action.assistant_id, version]);
    }
  return [...named.values()];
}

/** One arm of the mapping's split, resolved: null `assistant` when its version is gone. */
export interface VariantArm {
  assistant_version: number | null;
  weight: number;
  assistant: AssistantEntity | null;
}

/** Published versions by number, per (owner, assistant) key (`splitKey`). */
type SplitVersions = Map<string, Map<number, AssistantEntity>>;

const splitKey = (userId: string, assistantId: string) => `${userId}:${assistantId}`;

type JoinedMapping = InboundMappingEntity & {
  assistant?: AssistantEntity;
  pinned?: { version: number; assistant: AssistantSnapshot };
  strategy?: InboundContextStrategyEntity;
  owner?: UserEntity;
};

/**
 * The inbound lookup's read. The rows the assistant and auth modules own are joined in by their
 * repositories (`AssistantRepository.joinAssistant`, `PublishedVersions.joinVersion`,
 * `WebhookSecretsService.joinOwner`), so no table of theirs is named here: the call is waiting on
 * this lookup, so it costs one database round trip before the webhook, not one per owner module (a
 * mapping with a traffic split costs a second one, for its versions, asked of PublishedVersions).
 */
@Injectable()
export class LookupRepository {
  private readonly mappings: Repository<InboundMappingEntity>;

  constructor(
    dataSource: DataSource,
    private readonly published: PublishedVersions,
    private readonly assistants: AssistantRepository,
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
    return row ? this.withPolicy(this.resolvedOf(row, await this.splitVersions([row]))) : null;
  }

  /** The mappings `ids` names (those that exist) resolved, read through `manager`. */
  async resolveIds(ids: readonly string[], manager: EntityManager): Promise<ResolvedMapping[]> {
    if (!ids.length) return [];
    const qb = this.joined(manager.createQueryBuilder(InboundMappingEntity, 'm'));
    const rows: JoinedMapping[] = await qb.where('m.inbound_id IN (:...ids)', { ids }).getMany();
    const versions = await this.splitVersions(rows, manager);
    return Promise.all(rows.map((row) => this.withPolicy(this.resolvedOf(row, versions), manager)));
  }

  /**
   * One page of every mapping, in inbound_id order after `after` (from the start when null), at
   * most `limit`, resolved as a lookup resolves it: the full rebuild's keyset read.
   */
  async resolvePage(
    after: string | null,
    limit: number,
    manager: EntityManager,
  ): Promise<ResolvedMapping[]> {
    const qb = this.joined(manager.createQueryBuilder(InboundMappingEntity, 'm'));
    if (after !== null) qb.where('m.inbound_id > :after', { after });
    const rows: JoinedMapping[] = await qb.orderBy('m.inbound_id', 'ASC').limit(limit).getMany();
    const versions = await this.splitVersions(rows, manager);
    return Promise.all(rows.map((row) => this.withPolicy(this.resolvedOf(row, versions), manager)));
  }

  /** `found` with the assistants its policy's actions name (a query each; only policies that name one). */
  private async withPolicy(
    found: ResolvedMapping,
    manager?: EntityManager,
  ): Promise<ResolvedMapping> {
    const named = policyAssistantsOf(found.mapping);
    if (!named.length) return found;
    const userId = found.mapping.user_id;
    const policyAssistants = new Map<string, AssistantEntity | null>();
    for (const [assistantId, version] of named) {
      const working = await this.assistants.findOwned(userId, assistantId, manager);
      const pinned =
        working && version !== null
          ? (await this.published.findMany(userId, assistantId, [version], manager))[0]?.assistant
          : undefined;
      policyAssistants.set(policyAssistantKey(assistantId, null), working);
      if (version !== null)
        policyAssistants.set(policyAssistantKey(assistantId, version), pinned ?? null);
    }
    return { ...found, policyAssistants };
  }

  /** The mapping's strategy (this module's) and, through their owners' repositories, its assistant, pinned version and owner. */
  private joined(
    qb: SelectQueryBuilder<InboundMappingEntity>,
  ): SelectQueryBuilder<InboundMappingEntity> {
    qb = AssistantRepository.joinAssistant(
      qb,
      'm.assistant',
      'a',
      'a.assistant_id = m.assistant_id AND a.user_id = m.user_id',
    ).leftJoinAndMapOne(
      'm.strategy',
      InboundContextStrategyEntity,
      's',
      's.strategy_id = m.inbound_context_strategy_id AND s.user_id = m.user_id',
    );
    qb = PublishedVersions.joinVersion(
      qb,
      'm.pinned',
      'v',
      'v.assistant_id = m.assistant_id AND v.version = m.assistant_version AND v.user_id = m.user_id',
    );
    return WebhookSecretsService.joinOwner(qb, 'm.owner', 'u', 'u.user_id = m.user_id');
  }

  private resolvedOf(row: JoinedMapping, versions: SplitVersions): ResolvedMapping {
    const { assistant = null, pinned, strategy = null, owner = null, ...mapping } = row;
    if (assistant && mapping.assistant_variants?.length) {
      const byNumber = versions.get(splitKey(mapping.user_id, assistant.assistant_id));
      const variants = mapping.assistant_variants.map(
        ({ assistant_version: version, weight }): VariantArm => ({
          assistant_version: version,
          weight,
          assistant: version === null ? assistant : (byNumber?.get(version) ?? null),
        }),
      );
      return { mapping, assistant, version: null, strategy, owner, variants, working: assistant };
    }
    if (assistant && pinned) {
      return {
        mapping,
        assistant: restoreAssistant(pinned.assistant),
        version: Number(pinned.version),
        strategy,
        owner,
        working: assistant,
      };
    }
    return { mapping, assistant, version: null, strategy, owner, working: assistant };
  }

  /**
   * The published versions the rows' traffic splits name, read in one query per (owner, assistant)
   * however many of the rows split that assistant (a split has at most 5 arms).
   */
  private async splitVersions(
    rows: JoinedMapping[],
    manager?: EntityManager,
  ): Promise<SplitVersions> {
    const wanted = new Map<string, { userId: string; assistantId: string; numbers: Set<number> }>();
    for (const row of rows) {
      if (!row.assistant || !row.assistant_variants?.length) continue;
      const key = splitKey(row.user_id, row.assistant.assistant_id);
      const entry = wanted.get(key) ?? {
        userId: row.user_id,
        assistantId: row.assistant.assistant_id,
        numbers: new Set<number>(),
      };
      for (const arm of row.assistant_variants)
        if (arm.assistant_version !== null) entry.numbers.add(arm.assistant_version);
      wanted.set(key, entry);
    }
    const found: SplitVersions = new Map();
    for (const [key, { userId, assistantId, numbers }] of wanted) {
      const versions = await this.published.findMany(userId, assistantId, [...numbers], manager);
      found.set(key, new Map(versions.map((v) => [v.version, v.assistant])));
    }
    return found;
  }

  /** The user's strategies, or the one `strategyId` names (none when it is gone), read through `manager`. */
  strategiesOf(
    userId: string,
    strategyId: string | null,
    manager: EntityManager,
  ): Promise<InboundContextStrategyEntity[]> {
    return manager.find(InboundContextStrategyEntity, {
      where:
        strategyId === null ? { user_id: userId } : { user_id: userId, strategy_id: strategyId },
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
