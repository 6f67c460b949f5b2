import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';

/** Which of `userIds` have a subscription to `endpoint.unhealthy` or `endpoint.recovered`, read on `manager`. */
export type HealthSubscribersReader = (
  userIds: readonly string[],
  manager: EntityManager,
) => Promise<ReadonlySet<string>>;

/**
 * Whether an owner's endpoint health is counted (it subscribes to its events), kept in the owner's
 * routing record so a lookup learns it with the rest of its routing, never from the database. The
 * subscriptions' module (above this one) registers how the routing table's build reads them; the
 * lookup notes what its record said, for the activity log's hook that counts the entry it writes.
 */
@Injectable()
export class HealthSubscribers {
  private reader: HealthSubscribersReader = () => Promise.resolve(new Set<string>());
  private readonly noted = new LRUCache<string, boolean>({ max: 100_000 });

  readWith(reader: HealthSubscribersReader): void {
    this.reader = reader;
  }

  /** The routing table's build: which owners of a page (or a change) subscribe. */
  among(userIds: readonly string[], manager: EntityManager): Promise<ReadonlySet<string>> {
    return userIds.length ? this.reader(userIds, manager) : Promise.resolve(new Set<string>());
  }

  /** A lookup's routing said so (`undefined`: it read the database, which does not say). */
  note(userId: string, subscribed: boolean | undefined): void {
    if (subscribed === undefined) this.noted.delete(userId);
    else this.noted.set(userId, subscribed);
  }

  /** What the last routing read by this process said of the owner; undefined when none did. */
  known(userId: string): boolean | undefined {
    return this.noted.get(userId);
  }
}
