import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { nextUpdatedAt } from '../database/owned-entity';
import { lockForWrite, runTransaction } from '../database/transaction';
import { AuditTrail } from '../audit/audit-trail';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { assertIfMatch } from '../common/etag/etag';
import { AppException } from '../common/errors/app.exception';
import { UrlGuard } from '../common/http/url-guard';
import { SecretReferences } from '../secret/secret-references';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { assertHeadersResentForNewOrigin, mergeHeaders } from '../common/secrets/masking';
import { restoreMaskedUrl } from '../common/secrets/url-masking';
import { validateOrThrow } from '../common/validation/validate';
import { STRATEGY_TIMEOUT_SECONDS } from '../contracts/limits';
import { strategyReferencingFields } from './utils/strategy-referencing-fields.util';
import { CreateStrategyDto } from './dto/create-strategy.dto';
import type { StrategyDeletedDto, StrategyResponseDto } from './dto/strategy-response.dto';
import type { UpdateStrategyDto } from './dto/update-strategy.dto';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { readStrategyConfig } from './utils/read-strategy-config.util';
import { toStrategyResponse } from './utils/to-strategy-response.util';

const URL_FIELD = 'strategy_config.url';

@Injectable()
export class InboundContextStrategyService {
  constructor(
    @InjectRepository(InboundContextStrategyEntity)
    private readonly strategies: Repository<InboundContextStrategyEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly urlGuard: UrlGuard,
    private readonly secretRefs: SecretReferences,
    private readonly audit: AuditTrail,
    private readonly webhookSecrets: WebhookSecretsService,
  ) {}

  async create(userId: string, dto: CreateStrategyDto): Promise<StrategyResponseDto> {
    await this.secretRefs.assertUsable(userId, strategyReferencingFields(dto));
    await this.urlGuard.assertPublicUrl(dto.strategy_config.url, URL_FIELD);
    const entity = this.strategies.create({
      strategy_id: randomUUID(),
      user_id: userId,
      strategy_name: dto.strategy_name,
      strategy_type: dto.strategy_type,
      strategy_config: {
        url: dto.strategy_config.url,
        headers: dto.strategy_config.headers ?? {},
        timeout_seconds: dto.strategy_config.timeout_seconds ?? STRATEGY_TIMEOUT_SECONDS.default,
        ...withFallback(dto.strategy_config.fallback_context ?? null),
      },
      is_active: dto.is_active ?? true,
      created_at: new Date(),
    });
    entity.updated_at = entity.created_at;
    await runTransaction(this.dataSource, async (em) => {
      // The owner's first strategy brings its signing secret, which lookups through it sign with.
      await this.webhookSecrets.createWith(em, userId);
      // Again inside the transaction, holding the secrets: a concurrent delete cannot slip between.
      await this.secretRefs.assertUsable(userId, strategyReferencingFields(dto), em);
      await em.insert(
        InboundContextStrategyEntity,
        entity as QueryDeepPartialEntity<InboundContextStrategyEntity>,
      );
      await this.audit.record(em, userId, {
        ...auditOf('create', entity.strategy_id),
        after: toStrategyResponse(entity),
      });
    });
    return toStrategyResponse(await this.findOwned(userId, entity.strategy_id));
  }

  async list(userId: string, query: PaginationQueryDto): Promise<Paginated<StrategyResponseDto>> {
    return findPage(
      this.strategies,
      { user_id: userId },
      { created_at: 'DESC', strategy_id: 'DESC' },
      query,
      (rows) => rows.map(toStrategyResponse),
    );
  }

  async details(userId: string, strategyId: string): Promise<StrategyResponseDto> {
    return toStrategyResponse(await this.findOwned(userId, strategyId));
  }

  /**
   * `strategy_config.headers` merge key by key (`null` deletes, `****` keeps); every other field
   * replaces. Read, merge and write happen in one transaction with the row locked on MySQL, so two
   * concurrent PATCHes (e.g. of different headers) both land.
   */
  async update(
    userId: string,
    strategyId: string,
    dto: UpdateStrategyDto,
  ): Promise<StrategyResponseDto> {
    await runTransaction(this.dataSource, async (em) => {
      const stored = await this.lockOwned(em, userId, strategyId);
      const before = toStrategyResponse(stored);
      assertIfMatch(before);
      const config = readStrategyConfig(stored.strategy_config);
      const patch = dto.strategy_config;
      assertHeadersResentForNewOrigin(
        config.url,
        patch?.url ?? config.url,
        config.headers,
        patch?.headers,
        'strategy_config.headers',
      );
      const merged = {
        strategy_name: dto.strategy_name ?? stored.strategy_name,
        strategy_type: dto.strategy_type ?? stored.strategy_type,
        strategy_config: {
          url:
            patch?.url !== undefined
              ? restoreMaskedUrl(patch.url, config.url, URL_FIELD)
              : config.url,
          headers: mergeHeaders(config.headers, patch?.headers),
          timeout_seconds: patch?.timeout_seconds ?? config.timeout_seconds,
          ...withFallback(
            patch?.fallback_context === undefined
              ? config.fallback_context
              : patch.fallback_context,
          ),
        },
        is_active: dto.is_active ?? Boolean(stored.is_active),
      };
      // The merged record must still be a valid strategy (the create rules are the one source).
      const valid = await validateOrThrow(CreateStrategyDto, merged);
      await this.secretRefs.assertUsable(userId, strategyReferencingFields(merged), em);
      if (merged.strategy_config.url !== config.url) {
        await this.urlGuard.assertPublicUrl(valid.strategy_config.url, URL_FIELD);
      }
      await em.update(InboundContextStrategyEntity, { strategy_id: strategyId, user_id: userId }, {
        strategy_name: merged.strategy_name,
        strategy_type: merged.strategy_type,
        strategy_config: merged.strategy_config,
        is_active: merged.is_active,
        updated_at: nextUpdatedAt(stored.updated_at),
      } as QueryDeepPartialEntity<InboundContextStrategyEntity>);
      await this.audit.record(em, userId, {
        ...auditOf('update', strategyId),
        before,
        after: toStrategyResponse(await this.lockOwned(em, userId, strategyId)),
      });
    });
    return toStrategyResponse(await this.findOwned(userId, strategyId));
  }

  /** Deletes the strategy and detaches it from the user's mappings, in one transaction. */
  async delete(userId: string, strategyId: string): Promise<StrategyDeletedDto> {
    return runTransaction(this.dataSource, async (manager) => {
      const before = toStrategyResponse(await this.lockOwned(manager, userId, strategyId));
      assertIfMatch(before);
      const detached = await manager.update(
        InboundMappingEntity,
        { user_id: userId, inbound_context_strategy_id: strategyId },
        { inbound_context_strategy_id: null },
      );
      await manager.delete(InboundContextStrategyEntity, {
        strategy_id: strategyId,
        user_id: userId,
      });
      await this.audit.record(manager, userId, { ...auditOf('delete', strategyId), before });
      return { strategy_id: strategyId, detached_mappings: detached.affected ?? 0 };
    });
  }

  /** The caller's strategy, its row locked for the caller's transaction on MySQL; else a 404. */
  private async lockOwned(
    em: EntityManager,
    userId: string,
    strategyId: string,
  ): Promise<InboundContextStrategyEntity> {
    const found = await lockForWrite(
      em
        .getRepository(InboundContextStrategyEntity)
        .createQueryBuilder('s')
        .where('s.strategy_id = :strategyId AND s.user_id = :userId', { strategyId, userId }),
    ).getOne();
    if (!found) throw AppException.notFound('Inbound context strategy');
    return found;
  }

  /** Every strategy of the user (the scan for secret references); given `em`, inside its transaction. */
  allOwned(userId: string, em?: EntityManager): Promise<InboundContextStrategyEntity[]> {
    return (em?.getRepository(InboundContextStrategyEntity) ?? this.strategies).findBy({
      user_id: userId,
    });
  }

  /** The caller's strategy, or 404 (another user's strategy is "not found" too). */
  async findOwned(userId: string, strategyId: string): Promise<InboundContextStrategyEntity> {
    const found = await this.strategies.findOne({
      where: { strategy_id: strategyId, user_id: userId },
    });
    if (!found) throw AppException.notFound('Inbound context strategy');
    return found;
  }
}

const auditOf = (action: 'create' | 'update' | 'delete', strategyId: string) =>
  ({ action, resource_type: 'inbound_context_strategy', resource_id: strategyId }) as const;

/** The stored form: the key is absent when there is no fallback. */
function withFallback(fallback: Record<string, unknown> | null): {
  fallback_context?: Record<string, unknown>;
} {
  return fallback ? { fallback_context: fallback } : {};
}
