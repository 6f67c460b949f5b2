import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { QueryRunner } from 'typeorm';
import { loggableError } from '../common/errors/loggable-error';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { InjectJobQueue } from '../queue/inject-job-queue';
import type { JobQueue } from '../queue/job-queue';
import { eventWebhookId } from './event-delivery.service';
import type { EventSubscriptionEntity } from './event-subscription.entity';
import { EventSubscriptionRepository } from './event-subscription.repository';
import type { SubscribableEvent, TenantEvent } from './event-subscription.types';

/** Data of an `event-delivery` job: which event goes to which subscription, never a secret. */
export interface EventDeliveryJobData {
  subscription_id: string;
  event: TenantEvent;
  /** Set by the service on the attempts it schedules itself (see `trustedDelivery`). */
  delivery?: { attempt: number; webhook_id: string };
}

/** How long a user's subscriptions are read from memory before the table is asked again. */
const ROUTES_TTL_MS = 5_000;

/** An event's id, from what it is about: every process that notices it names it alike. */
export function tenantEventId(type: SubscribableEvent, key: string): string {
  return `evt_${createHash('sha256').update(`${type}\u0000${key}`).digest('base64url').slice(0, 27)}`;
}

/**
 * Raises tenant events (`config.changed`, `endpoint.unhealthy`, `number.overflow`, ...): one
 * `event-delivery` job per subscription of the owner that takes the event. The job id is the
 * delivery's `webhook-id`, derived from the subscription and the event id, and the event id from
 * what the event is about (`key`), so several processes noticing one event add one job. `emit`
 * never throws and never waits on a subscriber: a failure to queue is logged and the caller goes on.
 */
@Injectable()
export class TenantEvents {
  private readonly logger = new Logger(TenantEvents.name);
  private readonly routes = new LRUCache<
    string,
    Pick<EventSubscriptionEntity, 'subscription_id' | 'events'>[]
  >({ max: 10_000, ttl: ROUTES_TTL_MS });

  constructor(
    private readonly subscriptions: EventSubscriptionRepository,
    @InjectJobQueue(QUEUES.EVENT_DELIVERY) private readonly queue: JobQueue<EventDeliveryJobData>,
  ) {}

  /**
   * Raises `type` for `userId`. `key` names what happened, uniquely (an audit entry id, a revert's
   * mapping and time): the same key is the same event. Resolves once the jobs are queued.
   */
  async emit(
    userId: string,
    type: SubscribableEvent,
    key: string,
    data: Record<string, unknown>,
    at: Date = new Date(),
    runner?: QueryRunner,
  ): Promise<void> {
    try {
      const targets = (await this.routesOf(userId, runner)).filter((s) => s.events.includes(type));
      if (targets.length === 0) return;
      const event: TenantEvent = {
        id: tenantEventId(type, key),
        type,
        timestamp: at.toISOString(),
        data,
      };
      await Promise.all(targets.map((s) => this.enqueue(s.subscription_id, event)));
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), user_id: userId, type },
        'tenant event not queued',
      );
    }
  }

  /** Whether any subscription of the user takes `type` (cheap: read from memory most of the time). */
  async wants(userId: string, type: SubscribableEvent): Promise<boolean> {
    return (await this.routesOf(userId)).some((s) => s.events.includes(type));
  }

  /** Forgets the user's subscriptions held in memory (after this process changes them). */
  forget(userId: string): void {
    this.routes.delete(userId);
  }

  enqueue(subscriptionId: string, event: TenantEvent): Promise<string> {
    return this.queue.add(
      { subscription_id: subscriptionId, event },
      {
        ...QUEUE_SETTINGS[QUEUES.EVENT_DELIVERY].options,
        jobId: eventWebhookId(subscriptionId, event.id),
      },
    );
  }

  /** `runner`: a connection the caller holds (see `ConfigChangeListener`), read on rather than the pool. */
  private async routesOf(userId: string, runner?: QueryRunner) {
    const cached = this.routes.get(userId);
    if (cached) return cached;
    const rows = await this.subscriptions.routesOf(userId, runner);
    this.routes.set(userId, rows);
    return rows;
  }
}
