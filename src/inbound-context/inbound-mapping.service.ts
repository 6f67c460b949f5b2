import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantService } from '../assistant/assistant.service';
import { AppException } from '../common/errors/app.exception';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { nextUpdatedAt } from '../database/owned-entity';
import { isMysql, runTransaction } from '../database/transaction';
import { AuditTrail } from '../audit/audit-trail';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { assertIfMatch } from '../common/etag/etag';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { isUniqueViolation } from '../database/unique-violation';
import type { AssignInboundDto, UpdateInboundDto } from './dto/assign-inbound.dto';
import type { InboundDeletedDto, InboundResponseDto } from './dto/inbound-response.dto';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { InboundPolicyChecks } from './inbound-policy-checks';
import { PhoneNumberHolders } from './phone-number-holders';
import { ProductionGate } from './production-gate';
import { toInboundResponse } from './utils/to-inbound-response.util';
import { type AssistantVariant, variantsOf } from './variant-pick';

@Injectable()
export class InboundMappingService {
  constructor(
    @InjectRepository(InboundMappingEntity)
    private readonly mappings: Repository<InboundMappingEntity>,
    private readonly assistants: AssistantService,
    private readonly versions: AssistantVersionService,
    @InjectRepository(InboundContextStrategyEntity)
    private readonly strategies: Repository<InboundContextStrategyEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly holders: PhoneNumberHolders,
    private readonly audit: AuditTrail,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly policies: InboundPolicyChecks,
    private readonly gate: ProductionGate,
  ) {}

  async assign(userId: string, dto: AssignInboundDto): Promise<InboundResponseDto> {
    await this.assistants.assertOwned(userId, dto.assistant_id);
    const version = dto.assistant_version ?? null;
    if (version !== null) await this.assertVersion(userId, dto.assistant_id, version);
    const variants = variantsOf(dto.assistant_variants);
    if (variants) await this.assertVariants(userId, dto.assistant_id, variants);
    const strategyId = dto.inbound_context_strategy_id ?? null;
    if (strategyId) await this.assertStrategy(userId, strategyId);
    const policy = dto.policy ? await this.policies.stored(userId, dto.policy) : null;
    const rollout = await this.gate.forAssign(userId, dto, version, variants);
    const normalized = normalizePhoneNumber(dto.inbound_config.phone_number);
    const active = dto.is_active ?? true;
    const inboundId = randomUUID();
    await this.write(normalized, userId, async (em) => {
      await em.insert(InboundMappingEntity, {
        inbound_id: inboundId,
        user_id: userId,
        assistant_id: dto.assistant_id,
        assistant_version: version,
        assistant_variants: variants,
        policy,
        ...rollout,
        inbound_context_strategy_id: strategyId,
        service: dto.service,
        inbound_config: { phone_number: dto.inbound_config.phone_number },
        phone_number_normalized: normalized,
        is_active: active,
        active_phone_number: active ? normalized : null,
      });
      await this.audit.record(em, userId, {
        ...auditOf('assign', inboundId),
        after: await this.lockedView(em, userId, inboundId),
      });
    }, strategyId && userId);
    return toInboundResponse(await this.findOwned(userId, inboundId));
  }

  async list(userId: string, query: PaginationQueryDto): Promise<Paginated<InboundResponseDto>> {
    return findPage(
      this.mappings,
      { user_id: userId },
      { created_at: 'DESC', inbound_id: 'DESC' },
      query,
      (rows) => rows.map(toInboundResponse),
    );
  }

  async details(userId: string, inboundId: string): Promise<InboundResponseDto> {
    return toInboundResponse(await this.findOwned(userId, inboundId));
  }

  /** Replaces what is sent; `null` detaches the assistant or the strategy. */
  async update(
    userId: string,
    inboundId: string,
    dto: UpdateInboundDto,
  ): Promise<InboundResponseDto> {
    const stored = await this.findOwned(userId, inboundId);
    const changes: Partial<InboundMappingEntity> = await this.policies.change(userId, dto.policy);
    if (dto.assistant_id !== undefined) {
      if (dto.assistant_id !== null) await this.assistants.assertOwned(userId, dto.assistant_id);
      changes.assistant_id = dto.assistant_id;
      // A pin or a split names versions of one assistant: another assistant starts on its working copy.
      if (dto.assistant_id !== stored.assistant_id) {
        changes.assistant_version = null;
        changes.assistant_variants = null;
      }
    }
    await this.applyVersionChoice(userId, stored, dto, changes);
    if (dto.inbound_context_strategy_id !== undefined) {
      await this.assertStrategy(userId, dto.inbound_context_strategy_id);
      changes.inbound_context_strategy_id = dto.inbound_context_strategy_id;
    }
    if (dto.service !== undefined && dto.service !== null) changes.service = dto.service;
    let normalized = stored.phone_number_normalized;
    if (dto.inbound_config) {
      normalized = normalizePhoneNumber(dto.inbound_config.phone_number);
      changes.inbound_config = {
        ...stored.inbound_config,
        phone_number: dto.inbound_config.phone_number,
      };
      changes.phone_number_normalized = normalized;
    }
    const active = dto.is_active ?? Boolean(stored.is_active);
    changes.is_active = active;
    changes.active_phone_number = active ? normalized : null;
    const previous = stored.phone_number_normalized;
    const moved = previous !== normalized;
    await this.write(
      normalized,
      // Only a new number is claimed: the mapping already stands on its own.
      moved ? userId : null,
      async (em) => {
        const before = await this.lockedView(em, userId, inboundId);
        assertIfMatch(before);
        await em.update(
          InboundMappingEntity,
          { inbound_id: inboundId, user_id: userId },
          {
            ...changes,
            updated_at: nextUpdatedAt(before.updated_at),
          } as QueryDeepPartialEntity<InboundMappingEntity>,
        );
        if (moved) await this.holders.releaseIfUnused(em, userId, previous);
        await this.audit.record(em, userId, {
          ...auditOf('update', inboundId),
          before,
          after: await this.lockedView(em, userId, inboundId),
        });
      },
      changes.inbound_context_strategy_id ? userId : null,
    );
    return toInboundResponse(await this.findOwned(userId, inboundId));
  }

  /** Deletes the mapping; the user's last mapping of a number gives the number up. */
  async delete(userId: string, inboundId: string): Promise<InboundDeletedDto> {
    return runTransaction(this.dataSource, async (em) => {
      const found = await this.lockOwned(em, userId, inboundId);
      const before = toInboundResponse(found);
      assertIfMatch(before);
      await em.delete(InboundMappingEntity, { inbound_id: inboundId, user_id: userId });
      await this.holders.releaseIfUnused(em, userId, found.phone_number_normalized);
      await this.audit.record(em, userId, { ...auditOf('delete', inboundId), before });
      return { inbound_id: inboundId };
    });
  }

  async findOwned(userId: string, inboundId: string): Promise<InboundMappingEntity> {
    const found = await this.mappings.findOne({
      where: { inbound_id: inboundId, user_id: userId },
    });
    if (!found) throw AppException.notFound('Inbound mapping');
    return found;
  }

  /** The caller's mapping, its row locked for the caller's transaction on MySQL; else a 404. */
  private async lockOwned(
    em: EntityManager,
    userId: string,
    inboundId: string,
  ): Promise<InboundMappingEntity> {
    const found = await em.findOne(InboundMappingEntity, {
      where: { inbound_id: inboundId, user_id: userId },
      // SQLite has no row locks; `runTransaction` runs one transaction at a time there instead.
      ...(isMysql(em.connection) && { lock: { mode: 'pessimistic_write' as const } }),
    });
    if (!found) throw AppException.notFound('Inbound mapping');
    return found;
  }

  /** What details shows of the mapping now, inside the caller's transaction (ETag, audit). */
  private async lockedView(
    em: EntityManager,
    userId: string,
    inboundId: string,
  ): Promise<InboundResponseDto> {
    return toInboundResponse(await this.lockOwned(em, userId, inboundId));
  }

  /**
   * Writes a mapping of `normalized` in one transaction with the user's claim on the number (409
   * when another user holds it; `claimFor` null when the number is not new to the mapping); a
   * mapping naming a strategy brings its owner's signing secret (`signs`), first in it. Among the
   * holder's own mappings the unique `active_phone_number` index decides.
   */
  private async write(
    normalized: string,
    claimFor: string | null,
    op: (em: EntityManager) => Promise<unknown>,
    signs: string | null = null,
  ): Promise<void> {
    try {
      await runTransaction(this.dataSource, async (em) => {
        if (signs) await this.webhookSecrets.createWith(em, signs);
        if (claimFor) await this.holders.claim(em, claimFor, normalized);
        await op(em);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppException.conflict(
          `Phone number ${normalized} already has an active inbound mapping`,
        );
      }
      throw error;
    }
  }

  /**
   * `assistant_version` and `assistant_variants` of an update: each must exist for the mapping's
   * (possibly new) assistant; a pin replaces a split and a split replaces a pin (`ProductionGate`).
   */
  private async applyVersionChoice(
    userId: string,
    stored: InboundMappingEntity,
    dto: UpdateInboundDto,
    changes: Partial<InboundMappingEntity>,
  ): Promise<void> {
    const assistantId =
      changes.assistant_id !== undefined ? changes.assistant_id : stored.assistant_id;
    if (dto.assistant_version !== undefined) {
      if (dto.assistant_version !== null) {
        await this.assertVersion(userId, assistantId, dto.assistant_version);
        changes.assistant_variants = null;
      }
      changes.assistant_version = dto.assistant_version;
    }
    if (dto.assistant_variants !== undefined) {
      const variants = variantsOf(dto.assistant_variants);
      if (variants) {
        await this.assertVariants(userId, assistantId, variants);
        changes.assistant_version = null;
      }
      changes.assistant_variants = variants;
    }
    Object.assign(changes, await this.gate.settle(userId, dto, { ...stored, ...changes }, stored));
  }

  /** 404 unless every version the split names is one of the assistant's (null: the working copy). */
  private async assertVariants(
    userId: string,
    assistantId: string | null,
    variants: AssistantVariant[],
  ): Promise<void> {
    for (const variant of variants) {
      if (variant.assistant_version === null) {
        if (assistantId === null) throw AppException.notFound('Assistant');
        continue;
      }
      await this.assertVersion(userId, assistantId, variant.assistant_version);
    }
  }

  private async assertVersion(
    userId: string,
    assistantId: string | null,
    version: number,
  ): Promise<void> {
    if (assistantId === null) throw AppException.notFound('Assistant version');
    await this.versions.assertExists(userId, assistantId, version);
  }

  private async assertStrategy(userId: string, strategyId: string | null): Promise<void> {
    if (strategyId === null) return;
    const exists = await this.strategies.exists({
      where: { strategy_id: strategyId, user_id: userId },
    });
    if (!exists) throw AppException.notFound('Inbound context strategy');
  }
}

const auditOf = (action: 'assign' | 'update' | 'delete', inboundId: string) =>
  ({ action, resource_type: 'inbound', resource_id: inboundId }) as const;
