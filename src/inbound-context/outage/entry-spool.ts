import { randomUUID } from 'node:crypto';
import type { OnModuleDestroy } from '@nestjs/common';
import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import { GuardedRedis } from '../../common/redis/guarded-redis';
import type { RedisConnection } from '../../common/redis/redis-connection';
import type { RedisTarget } from '../../config/redis-target';

/** One kept entry: its own id (the drain's proof it was not written already) and its attempts so far. */
export interface SpooledEntry {
  id: string;
  attempts: number;
  entry: Omit<ActivityLogInput, 'timestamp'> & { timestamp: string };
}

/** A kept entry as the drain writes it: the original timestamp restored. */
export function entryOf(item: SpooledEntry): ActivityLogInput {
  return { ...item.entry, timestamp: new Date(item.entry.timestamp) };
}

/** Wraps an entry that could not be written (its timestamp already set by the caller). */
export function spooled(entry: ActivityLogInput & { timestamp: Date }): SpooledEntry {
  return {
    id: randomUUID(),
    attempts: 0,
    entry: { ...entry, timestamp: entry.timestamp.toISOString() },
  };
}

/**
 * Lookup log entries that could not be written (the database is down), oldest first, until the
 * drain writes them. Entries are already redacted as the log stores them: no secret is kept here.
 * The drain is the only reader and runs under a lock, so it alone removes from the head while
 * lookups append at the tail.
 */
export abstract class EntrySpool {
  abstract keep(item: SpooledEntry): Promise<void>;
  /** The first `n` kept entries. */
  abstract head(n: number): Promise<SpooledEntry[]>;
  /** Removes the first `n`. */
  abstract drop(n: number): Promise<void>;
  /** Replaces the first entry (its attempts counted). */
  abstract replaceHead(item: SpooledEntry): Promise<void>;
  abstract size(): Promise<number>;
  /** Whether this process may drain now (one drainer at a time, for at most `ms`). */
  abstract lock(token: string, ms: number): Promise<boolean>;
  abstract unlock(token: string): Promise<void>;
}

/** Embedded mode: the one process's memory (its SQLite database is local, so this rarely holds anything). */
export class MemoryEntrySpool extends EntrySpool {
  private readonly items: SpooledEntry[] = [];
  private holder: string | null = null;

  keep(item: SpooledEntry): Promise<void> {
    this.items.push(item);
    return Promise.resolve();
  }
  head(n: number): Promise<SpooledEntry[]> {
    return Promise.resolve(this.items.slice(0, n));
  }
  drop(n: number): Promise<void> {
    this.items.splice(0, n);
    return Promise.resolve();
  }
  replaceHead(item: SpooledEntry): Promise<void> {
    if (this.items.length) this.items[0] = item;
    return Promise.resolve();
  }
  size(): Promise<number> {
    return Promise.resolve(this.items.length);
  }
  lock(token: string): Promise<boolean> {
    if (this.holder && this.holder !== token) return Promise.resolve(false);
    this.holder = token;
    return Promise.resolve(true);
  }
  unlock(token: string): Promise<void> {
    if (this.holder === token) this.holder = null;
    return Promise.resolve();
  }
}

/**
 * Shared by every process: the list `<QUEUE_PREFIX>:lookup-log-spool` and its drain lock (single-key
 * commands only, so it works on a Redis Cluster).
 */
export class RedisEntrySpool extends EntrySpool implements OnModuleDestroy {
  private readonly guarded: GuardedRedis;
  private readonly key: string;
  private readonly lockKey: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:lookup-log-spool`;
    this.lockKey = `${prefix}:lookup-log-spool:drain`;
    this.guarded = new GuardedRedis(target, 'lookup log entries cannot be kept');
  }

  private redis(): RedisConnection {
    return this.guarded.connection();
  }

  async keep(item: SpooledEntry): Promise<void> {
    await this.redis().rpush(this.key, JSON.stringify(item));
  }
  async head(n: number): Promise<SpooledEntry[]> {
    const items = await this.redis().lrange(this.key, 0, n - 1);
    return items.map((text) => JSON.parse(text) as SpooledEntry);
  }
  async drop(n: number): Promise<void> {
    if (n > 0) await this.redis().ltrim(this.key, n, -1);
  }
  async replaceHead(item: SpooledEntry): Promise<void> {
    await this.redis().lset(this.key, 0, JSON.stringify(item));
  }
  async size(): Promise<number> {
    return this.redis().llen(this.key);
  }
  async lock(token: string, ms: number): Promise<boolean> {
    return (await this.redis().set(this.lockKey, token, 'PX', ms, 'NX')) === 'OK';
  }
  async unlock(token: string): Promise<void> {
    if ((await this.redis().get(this.lockKey)) === token) await this.redis().del(this.lockKey);
  }

  onModuleDestroy(): void {
    this.guarded.disconnect();
  }
}
