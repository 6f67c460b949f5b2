import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HealthSubscribers } from '../lookup/routing/health-subscribers';
import { EventSubscriptionRepository } from './event-subscription.repository';
import type { SubscribableEvent } from './event-subscription.types';

export const ENDPOINT_HEALTH_EVENTS: readonly SubscribableEvent[] = [
  'endpoint.unhealthy',
  'endpoint.recovered',
];

/**
 * Tells the routing table's build how to read which owners subscribe to endpoint-health events
 * (their routing record then says so): in every process that builds the table.
 */
@Injectable()
export class HealthSubscribersReading implements OnModuleInit {
  constructor(
    private readonly subscribers: HealthSubscribers,
    private readonly subscriptions: EventSubscriptionRepository,
  ) {}

  onModuleInit(): void {
    this.subscribers.readWith((userIds, manager) =>
      this.subscriptions.subscribersAmong(userIds, ENDPOINT_HEALTH_EVENTS, manager),
    );
  }
}
