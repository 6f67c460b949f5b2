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

/**
 * An entry a lookup answered with before its commit (`LOOKUP_LOG_WRITE=behind`): held from the
 * answer until its process has committed it, or, `held_at` long enough ago, until any drainer has.
 */
export interface HeldEntry extends SpooledEntry {
  /** When it was held (epoch ms). */
  held_at: number;
}

/** A page of held entries, and where the next page starts ('0': none left). */
export interface HeldPage {
  cursor: string;
  items: HeldEntry[];
}

/** Wraps an entry that could not be written (its timestamp already set by the caller). */
export function spooled(entry: ActivityLogInput & { timestamp: Date }): SpooledEntry {
  return {
    id: randomUUID(),
    attempts: 0,
    entry: { ...entry, timestamp: entry.timestamp.toISOString() },
  };
}

/** Holds an entry answered before its commit (its timestamp already set by the caller). */
export function heldEntry(entry: ActivityLogInput & { timestamp: Date }): HeldEntry {
  return { ...spooled(entry), held_at: Date.now() };
}

/**
 * Lookup log entries that could not be written yet (the database is down, or with
 * `LOOKUP_LOG_WRITE=behind` every entry for a moment), oldest first, until the drain writes them.
 * Entries are already redacted as the log stores them: no secret is kept here. Lookups append at
 * the tail; the drain reads the head and removes what it wrote. The drain runs under a lock, and
 * removes or replaces the head only while it is still the entry it read first: a second drainer
 * (the lock expired under a slow one) finds the head gone and leaves the list as it is, so no
 * entry is removed unwritten.
 *
 * Beside the list, entries answered before their commit are *held* by their id (no order): the
 * answering process releases each once committed, and a drainer writes those held longer than a
 * grace (their process stopped, or the database was down) under the id they were answered with.
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
  abstract hold(item: HeldEntry): Promise<void>;
  /** Lets go of held entries (committed). */
  abstract release(ids: string[]): Promise<void>;
  /** A page of held entries from `cursor` ('0' for the first). */
  abstract held(cursor: string): Promise<HeldPage>;
  /** Replaces a held entry (its attempts counted) if it is still held. */
  abstract rehold(item: HeldEntry): Promise<void>;
  /** Entries kept or held, not yet committed. */
  abstract pending(): Promise<number>;
}

/** Embedded mode: the one process's memory (its SQLite database is local, so this rarely holds anything). */
export class MemoryEntrySpool extends EntrySpool {
  private readonly items: SpooledEntry[] = [];
  private readonly holding = new Map<string, HeldEntry>();
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
  hold(item: HeldEntry): Promise<void> {
    this.holding.set(item.id, item);
    return Promise.resolve();
  }
  release(ids: string[]): Promise<void> {
    for (const id of ids) this.holding.delete(id);
    return Promise.resolve();
  }
  held(): Promise<HeldPage> {
    return Promise.resolve({ cursor: '0', items: [...this.holding.values()] });
  }
  rehold(item: HeldEntry): Promise<void> {
    if (this.holding.has(item.id)) this.holding.set(item.id, item);
    return Promise.resolve();
  }
  pending(): Promise<number> {
    return Promise.resolve(this.items.length + this.holding.size);
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
/** Sets the field ARGV[1] of KEYS[1] to ARGV[2] if it is there. */
const REPLACE_IF_HELD = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end return 0`;
/** Held entries read per page. */
const HELD_PAGE = 200;

/**
 * Shared by every process: the list `<QUEUE_PREFIX>:lookup-log-spool`, the hash of held entries
 * `<QUEUE_PREFIX>:lookup-log-held` and the drain lock (single-key
 * commands and scripts only, so it works on a Redis Cluster). Its connection closes at application
 * shutdown, after the drain a process stops with has let go of the lock.
 */
export class RedisEntrySpool extends EntrySpool implements OnApplicationShutdown {
  private readonly guarded: GuardedRedis;
  private readonly key: string;
  private readonly lockKey: string;
  private readonly heldKey: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:lookup-log-spool`;
    this.lockKey = `${prefix}:lookup-log-spool:drain`;
    this.heldKey = `${prefix}:lookup-log-held`;
    // Every lookup holds its entry here with `LOOKUP_LOG_WRITE=behind`: those of one turn share a write.
    this.guarded = new GuardedRedis(target, 'lookup log entries cannot be kept', {
      autoPipelining: true,
    });
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

  async hold(item: HeldEntry): Promise<void> {
    await this.redis().hset(this.heldKey, item.id, JSON.stringify(item));
  }
  async release(ids: string[]): Promise<void> {
    if (ids.length) await this.redis().hdel(this.heldKey, ...ids);
  }
  async held(cursor: string): Promise<HeldPage> {
    const [next, flat] = await this.redis().hscan(this.heldKey, cursor, 'COUNT', HELD_PAGE);
    const items = flat.filter((_, i) => i % 2 === 1).map((text) => JSON.parse(text) as HeldEntry);
    return { cursor: next, items };
  }
  async rehold(item: HeldEntry): Promise<void> {
    await this.redis().eval(REPLACE_IF_HELD, 1, this.heldKey, item.id, JSON.stringify(item));
  }
  async pending(): Promise<number> {
    // One connection read: while Redis is lost it throws before either command is sent.
    const redis = this.redis();
    const [kept, held] = await Promise.all([redis.llen(this.key), redis.hlen(this.heldKey)]);
    return kept + held;
  }

  onApplicationShutdown(): void {
    this.guarded.disconnect();
  }
}
