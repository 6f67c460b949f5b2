import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditTrail, type AuditRecordInput } from '../audit/audit-trail';
import { generateWebhookSecret } from '../auth/webhook-secrets.service';
import { AppException } from '../common/errors/app.exception';
import { UrlGuard } from '../common/http/url-guard';
import {
  findPage,
  type Paginated,
  type PaginationQueryDto,
} from '../common/pagination/pagination-query.dto';
import { toIso } from '../common/time/iso';
import { runTransaction } from '../database/transaction';
import { SecretCipher } from '../secret/secret-cipher';
import type {
  CreateEventSubscriptionDto,
  UpdateEventSubscriptionDto,
} from './dto/event-subscription.dto';
import type {
  CreatedEventSubscriptionDto,
  EventSubscriptionDeletedDto,
  EventSubscriptionDto,
  EventSubscriptionTestDto,
} from './dto/event-subscription-response.dto';
import { EventDelivery, subscriptionSecretName } from './event-delivery.service';
import { EventSubscriptionEntity } from './event-subscription.entity';
import { EventSubscriptionRepository } from './event-subscription.repository';
import { MAX_SUBSCRIPTIONS_PER_USER, type TenantEvent } from './event-subscription.types';
import { TenantEvents } from './tenant-events';

/**
 * The caller's event subscriptions (`/event-subscription/...`). Each create, update and delete
 * writes its audit entry in its own transaction, like every configuration change (the entry shows
 * the subscription as its reads do: never its secret).
 */
@Injectable()
export class EventSubscriptionService {
  constructor(
    private readonly subscriptions: EventSubscriptionRepository,
    private readonly cipher: SecretCipher,
    private readonly urlGuard: UrlGuard,
    private readonly events: TenantEvents,
    private readonly delivery: EventDelivery,
    private readonly audit: AuditTrail,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Creates the subscription and its signing secret, answered here only. */
  async create(
    userId: string,
    dto: CreateEventSubscriptionDto,
  ): Promise<CreatedEventSubscriptionDto> {
    await this.urlGuard.assertPublicUrl(dto.url, 'url');
    const held = await this.subscriptions.rows.countBy({ user_id: userId });
    if (held >= MAX_SUBSCRIPTIONS_PER_USER)
      throw AppException.conflict(
        `A user may hold at most ${MAX_SUBSCRIPTIONS_PER_USER} event subscriptions`,
      );
    const subscriptionId = randomUUID();
    const secret = generateWebhookSecret();
    await runTransaction(this.dataSource, async (em) => {
      await em.insert(EventSubscriptionEntity, {
        subscription_id: subscriptionId,
        user_id: userId,
        url: dto.url,
        events: [...dto.events],
        description: dto.description ?? null,
        secret: this.cipher.encrypt(secret, userId, subscriptionSecretName(subscriptionId)),
      });
      await this.record(em, userId, 'create', subscriptionId, null);
    });
    this.events.forget(userId);
    return { ...toView(await this.findOwned(userId, subscriptionId)), secret };
  }

  list(userId: string, query: PaginationQueryDto): Promise<Paginated<EventSubscriptionDto>> {
    return findPage(
      this.subscriptions.rows,
      { user_id: userId },
      { created_at: 'DESC', subscription_id: 'DESC' },
      query,
      (rows) => rows.map(toView),
    );
  }

  async details(userId: string, subscriptionId: string): Promise<EventSubscriptionDto> {
    return toView(await this.findOwned(userId, subscriptionId));
  }

  async update(
    userId: string,
    subscriptionId: string,
    dto: UpdateEventSubscriptionDto,
  ): Promise<EventSubscriptionDto> {
    const before = toView(await this.findOwned(userId, subscriptionId));
    if (dto.url !== undefined) await this.urlGuard.assertPublicUrl(dto.url, 'url');
    const changes: Partial<EventSubscriptionEntity> = {};
    if (dto.url !== undefined) changes.url = dto.url;
    if (dto.events !== undefined) changes.events = [...dto.events];
    if (dto.description !== undefined) changes.description = dto.description ?? null;
    if (Object.keys(changes).length)
      await runTransaction(this.dataSource, async (em) => {
        const where = { subscription_id: subscriptionId, user_id: userId };
        const { affected } = await em.update(EventSubscriptionEntity, where, changes);
        if (affected === 0) throw AppException.notFound('Event subscription');
        await this.record(em, userId, 'update', subscriptionId, before);
      });
    this.events.forget(userId);
    return toView(await this.findOwned(userId, subscriptionId));
  }

  async remove(userId: string, subscriptionId: string): Promise<EventSubscriptionDeletedDto> {
    const before = toView(await this.findOwned(userId, subscriptionId));
    await runTransaction(this.dataSource, async (em) => {
      const where = { subscription_id: subscriptionId, user_id: userId };
      const { affected } = await em.delete(EventSubscriptionEntity, where);
      if (affected === 0) throw AppException.notFound('Event subscription');
      await this.record(em, userId, 'delete', subscriptionId, before);
    });
    this.events.forget(userId);
    return { subscription_id: subscriptionId };
  }

  /**
   * Sends a `ping` to the subscription now, one attempt, and says how it went; the attempt is an
   * `event_delivery` entry like any other (replayable).
   */
  async test(userId: string, subscriptionId: string): Promise<EventSubscriptionTestDto> {
    const subscription = await this.findOwned(userId, subscriptionId);
    const event: TenantEvent = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'ping',
      timestamp: new Date().toISOString(),
      data: { subscription_id: subscriptionId },
    };
    const outcome = await this.delivery.attempt(subscription, event, {
      attempt: 1,
      maxAttempts: 1,
    });
    return {
      event_id: event.id,
      status: outcome.status === 'delivered' ? 'delivered' : 'failed',
      status_code: outcome.status_code,
      log_id: outcome.log_id,
    };
  }

  /** The change's audit entry, in its transaction: the views before and after (never the secret). */
  private async record(
    em: EntityManager,
    userId: string,
    action: AuditRecordInput['action'],
    subscriptionId: string,
    before: EventSubscriptionDto | null,
  ): Promise<void> {
    const row =
      action === 'delete'
        ? null
        : await em.findOneBy(EventSubscriptionEntity, {
            subscription_id: subscriptionId,
            user_id: userId,
          });
    await this.audit.record(em, userId, {
      action,
      resource_type: 'event_subscription',
      resource_id: subscriptionId,
      before,
      after: row ? toView(row) : null,
    });
  }

  private async findOwned(
    userId: string,
    subscriptionId: string,
  ): Promise<EventSubscriptionEntity> {
    const found = await this.subscriptions.findOwned(userId, subscriptionId);
    if (!found) throw AppException.notFound('Event subscription');
    return found;
  }
}

function toView(row: EventSubscriptionEntity): EventSubscriptionDto {
  return {
    subscription_id: row.subscription_id,
    url: row.url,
    events: row.events,
    description: row.description ?? null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
