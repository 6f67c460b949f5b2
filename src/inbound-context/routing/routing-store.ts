import type { OnModuleDestroy } from '@nestjs/common';
import {
  connectRedis,
  failFastRedis,
  redisRetryStrategy,
  type RedisConnection,
} from '../../common/redis/redis-connection';
import type { RedisTarget } from '../../config/redis-target';
import { ROUTING_FORMAT } from './routing-entry';

/** Marks a table that holds every mapping (a full rebuild completed): a missing field is an unknown mapping. */
const BUILT = `${ROUTING_FORMAT}:built`;
const userField = (userId: string) => `${ROUTING_FORMAT}:user:${userId}`;

/** A field's stored value, and whether the table is complete (else a miss proves nothing). */
export interface RoutingRead {
  value: string | null;
  built: boolean;
}

/** The fields of one owner's mappings and their sealed values. */
export type UserRoutings = Map<string, Map<string, string>>;

/**
 * The routing table: one hash of `field → sealed routing`, plus per owner the list of its fields
 * (so a rebuild of one owner drops the fields of mappings that are gone). One key, so every
 * command is a single-key one and the table works on a Redis Cluster unchanged.
 */
export abstract class RoutingStore {
  abstract read(field: string): Promise<RoutingRead>;

  protected abstract fields(names: string[]): Promise<(string | null)[]>;
  protected abstract allFields(): Promise<string[]>;
  protected abstract apply(set: Map<string, string>, remove: string[]): Promise<void>;

  /** Replaces the routings of `users` (every owner listed, with or without mappings left). */
  async replaceUsers(users: UserRoutings): Promise<void> {
    const ids = [...users.keys()];
    if (!ids.length) return;
    const previous = await this.fields(ids.map(userField));
    const set = new Map<string, string>();
    const remove: string[] = [];
    ids.forEach((userId, i) => {
      const routings = users.get(userId)!;
      for (const [field, value] of routings) set.set(field, value);
      const old = previous[i] ? (JSON.parse(previous[i]) as string[]) : [];
      remove.push(...old.filter((field) => !routings.has(field)));
      if (routings.size) set.set(userField(userId), JSON.stringify([...routings.keys()]));
      else remove.push(userField(userId));
    });
    await this.apply(set, remove);
  }

  /** Replaces the whole table with `users`' routings and marks it complete. */
  async replaceAll(users: UserRoutings): Promise<void> {
    const set = new Map<string, string>();
    for (const [userId, routings] of users) {
      for (const [field, value] of routings) set.set(field, value);
      if (routings.size) set.set(userField(userId), JSON.stringify([...routings.keys()]));
    }
    set.set(BUILT, new Date().toISOString());
    const remove = (await this.allFields()).filter((field) => !set.has(field));
    await this.apply(set, remove);
  }
}

/** Embedded mode: the one process's memory. */
export class MemoryRoutingStore extends RoutingStore {
  private readonly table = new Map<string, string>();

  read(field: string): Promise<RoutingRead> {
    return Promise.resolve({ value: this.table.get(field) ?? null, built: this.table.has(BUILT) });
  }

  protected fields(names: string[]): Promise<(string | null)[]> {
    return Promise.resolve(names.map((name) => this.table.get(name) ?? null));
  }

  protected allFields(): Promise<string[]> {
    return Promise.resolve([...this.table.keys()]);
  }

  protected apply(set: Map<string, string>, remove: string[]): Promise<void> {
    for (const field of remove) this.table.delete(field);
    for (const [field, value] of set) this.table.set(field, value);
    return Promise.resolve();
  }
}

/**
 * Shared by every process: the hash `<QUEUE_PREFIX>:routing`. Lookups read it on a fail-fast
 * connection (Redis down: the lookup falls back to the database at once); rebuilds write it in
 * one MULTI on a connection that waits for Redis.
 */
export class RedisRoutingStore extends RoutingStore implements OnModuleDestroy {
  private readonly reader: RedisConnection;
  private readonly writer: RedisConnection;
  private readonly key: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:routing`;
    this.reader = failFastRedis(target);
    this.writer = connectRedis(target, {
      retryStrategy: redisRetryStrategy,
      maxRetriesPerRequest: 2,
    });
    this.writer.on('error', () => undefined);
  }

  async read(field: string): Promise<RoutingRead> {
    const [value, built] = await this.reader.hmget(this.key, field, BUILT);
    return { value, built: built !== null };
  }

  protected fields(names: string[]): Promise<(string | null)[]> {
    return this.writer.hmget(this.key, ...names);
  }

  protected allFields(): Promise<string[]> {
    return this.writer.hkeys(this.key);
  }

  protected async apply(set: Map<string, string>, remove: string[]): Promise<void> {
    const multi = this.writer.multi();
    if (remove.length) multi.hdel(this.key, ...remove);
    if (set.size) multi.hset(this.key, Object.fromEntries(set));
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  onModuleDestroy(): void {
    this.reader.disconnect();
    this.writer.disconnect();
  }
}
