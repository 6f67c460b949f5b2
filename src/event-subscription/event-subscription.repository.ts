import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type QueryRunner, type Repository } from 'typeorm';
import { EventSubscriptionEntity } from './event-subscription.entity';
import type { SubscribableEvent } from './event-subscription.types';

/** The `event_subscriptions` table, for the routes, the emitter and the deliveries. */
@Injectable()
export class EventSubscriptionRepository {
  constructor(
    @InjectRepository(EventSubscriptionEntity)
    readonly rows: Repository<EventSubscriptionEntity>,
  ) {}

  findOwned(userId: string, subscriptionId: string): Promise<EventSubscriptionEntity | null> {
    return this.rows.findOneBy({ subscription_id: subscriptionId, user_id: userId });
  }

  findById(subscriptionId: string): Promise<EventSubscriptionEntity | null> {
    return this.rows.findOneBy({ subscription_id: subscriptionId });
  }

  /** A user's subscriptions as the emitter needs them: which events go where, no secrets. */
  routesOf(
    userId: string,
    runner?: QueryRunner,
  ): Promise<Pick<EventSubscriptionEntity, 'subscription_id' | 'events'>[]> {
    const repo = runner ? runner.manager.getRepository(EventSubscriptionEntity) : this.rows;
    return repo.find({
      select: { subscription_id: true, events: true },
      where: { user_id: userId },
    });
  }

  /** Which of `userIds` have a subscription taking one of `events`, read through `manager`. */
  async subscribersAmong(
    userIds: readonly string[],
    events: readonly SubscribableEvent[],
    manager: EntityManager,
  ): Promise<Set<string>> {
    const rows = await manager.getRepository(EventSubscriptionEntity).find({
      select: { user_id: true, events: true },
      where: { user_id: In([...userIds]) },
    });
    return new Set(
      rows.filter((row) => row.events.some((e) => events.includes(e))).map((row) => row.user_id),
    );
  }
}
