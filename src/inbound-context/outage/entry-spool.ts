import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
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
 * Lookup log entries that could not be written yet (the database is down), oldest first, until
 * the drain writes them.
 * Entries are already redacted as the log stores them: no secret is kept here. Lookups append at
 * the tail; the drain reads the head and removes what it wrote. The drain runs under a lock, and
 * removes or replaces the head only while it is still the entry it read first: a second drainer
 * (the lock expired under a slow one) finds the head gone and leaves the list as it is, so no
 * entry is removed unwritten.
 */
export abstract class EntrySpool {
  abstract keep(item: SpooledEntry): Promise<void>;
  /** The first `n` kept entries. */
  abstract head(n: number): Promise<SpooledEntry[]>;
  /** Removes the first `n`, if the first is still the entry with `first`'s id. */
  abstract drop(n: number, first: SpooledEntry): Promise<void>;
  /** Replaces the first entry (its attempts counted), if it is still the one with `item`'s id. */
  abstract replaceHead(item: SpooledEntry): Promise<void>;
  abstract size(): Promise<number>;
  /** Whether this process may drain now: takes, or renews, the lock for `ms`. */
  abstract lock(token: string, ms: number): Promise<boolean>;
  abstract unlock(token: string): Promise<void>;
  /** Entries kept, not yet committed. */
  abstract pending(): Promise<number>;
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
  drop(n: number, first: SpooledEntry): Promise<void> {
    if (this.items[0]?.id === first.id) this.items.splice(0, n);
    return Promise.resolve();
  }
  replaceHead(item: SpooledEntry): Promise<void> {
    if (this.items[0]?.id === item.id) this.items[0] = item;
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
  pending(): Promise<number> {
    return Promise.resolve(this.items.length);
  }
}

/** A Lua prelude: `headIs(id)`, whether the first item of KEYS[1] is the kept entry with that id. */
const HEAD_IS = `local head = redis.call('LINDEX', KEYS[1], 0) local function headIs(id) return head and cjson.decode(head).id == id end`;
/** Removes the first ARGV[2] items of KEYS[1] if its first item is the entry ARGV[1]. */
const DROP_IF_HEAD = `${HEAD_IS} if headIs(ARGV[1]) then redis.call('LTRIM', KEYS[1], tonumber(ARGV[2]), -1) return 1 end return 0`;
/** Sets the first item of KEYS[1] to ARGV[2] if it is the entry ARGV[1]. */
const REPLACE_IF_HEAD = `${HEAD_IS} if headIs(ARGV[1]) then redis.call('LSET', KEYS[1], 0, ARGV[2]) return 1 end return 0`;
/** Takes the lock KEYS[1] for ARGV[1], or renews it when ARGV[1] holds it, for ARGV[2] ms. */
const LOCK = `local holder = redis.call('GET', KEYS[1]) if holder == false or holder == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2])) return 1 end return 0`;
/** Deletes the lock KEYS[1] if ARGV[1] holds it. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Shared by every process: the list `<QUEUE_PREFIX>:lookup-log-spool` and the drain lock (single-key
 * commands and scripts only, so it works on a Redis Cluster). Its connection closes at application
 * shutdown, after the drain a process stops with has let go of the lock.
 */
export class RedisEntrySpool extends EntrySpool implements OnApplicationShutdown {
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
  async drop(n: number, first: SpooledEntry): Promise<void> {
    if (n > 0) await this.redis().eval(DROP_IF_HEAD, 1, this.key, first.id, n);
  }
  async replaceHead(item: SpooledEntry): Promise<void> {
    await this.redis().eval(REPLACE_IF_HEAD, 1, this.key, item.id, JSON.stringify(item));
  }
  async size(): Promise<number> {
    return this.redis().llen(this.key);
  }
  async lock(token: string, ms: number): Promise<boolean> {
    return (await this.redis().eval(LOCK, 1, this.lockKey, token, ms)) === 1;
  }
  async unlock(token: string): Promise<void> {
    await this.redis().eval(UNLOCK, 1, this.lockKey, token);
  }

  async pending(): Promise<number> {
    return this.redis().llen(this.key);
  }

  onApplicationShutdown(): void {
    this.guarded.disconnect();
  }
}
