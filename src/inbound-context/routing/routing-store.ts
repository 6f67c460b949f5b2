import type { OnModuleDestroy } from '@nestjs/common';
import { GuardedRedis } from '../../common/redis/guarded-redis';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../../common/redis/redis-connection';
import type { RedisTarget } from '../../config/redis-target';
import { ROUTING_FORMAT } from './routing-entry';

/** Marks a table that holds every mapping (a full rebuild completed): a missing field is an unknown mapping. */
const BUILT = `${ROUTING_FORMAT}:built`;
const USER_PREFIX = `${ROUTING_FORMAT}:user:`;
const userField = (userId: string) => `${USER_PREFIX}${userId}`;
const ticketField = (userId: string) => `${ROUTING_FORMAT}:ticket:${userId}`;
const TICKETS = `${ROUTING_FORMAT}:tickets`;

/** A field's stored value, and whether the table is complete (else a miss proves nothing). */
export interface RoutingRead {
  value: string | null;
  built: boolean;
}

/** The fields of one owner's mappings and their sealed values. */
export type UserRoutings = Map<string, Map<string, string>>;

/**
 * The routing table: one hash of `field → sealed routing`, plus per owner the list of its fields
 * (so a rebuild of one owner drops the fields of mappings that are gone) and the ticket of the
 * read it was last written from. One key, so every command is a single-key one and the table
 * works on a Redis Cluster unchanged.
 *
 * Tickets order rebuilds across processes: a rebuild takes one before it reads the database and
 * writes an owner only when no rebuild that started reading later has written it already, so a
 * slow full rebuild never puts back what a change made meanwhile replaced.
 */
export abstract class RoutingStore {
  abstract read(field: string): Promise<RoutingRead>;
  /**
   * Calls `listener` each time the table can be written again after it could not (Redis back
   * after an outage); never for a table that cannot go away.
   */
  onRecovered(listener: () => void): void {
    void listener;
  }
  /** A number greater than every ticket taken before (take it before reading the database). */
  abstract ticket(): Promise<number>;

  /**
   * Whether this process runs the periodic whole-table rebuild now: one process per `ttlMs`
   * however many share the table (always, for a table only this process holds).
   */
  claimPeriodicRebuild(ttlMs: number): Promise<boolean> {
    void ttlMs;
    return Promise.resolve(true);
  }

  /**
   * Writes the routings of `users`, read from the database after `ticket` was taken, as one
   * atomic step: an owner whose stored ticket is newer keeps what it has. With `full`, `users` is
   * every owner: owners in the table but not in `users` lose their routings, and the table is
   * marked complete.
   */
  protected abstract write(users: UserRoutings, ticket: number, full: boolean): Promise<void>;

  /** Replaces the routings of `users` (every owner listed, with or without mappings left). */
  replaceUsers(users: UserRoutings, ticket: number): Promise<void> {
    return users.size ? this.write(users, ticket, false) : Promise.resolve();
  }

  /** Replaces the whole table with `users`' routings (owners not in it lose theirs) and marks it complete. */
  replaceAll(users: UserRoutings, ticket: number): Promise<void> {
    return this.write(users, ticket, true);
  }
}

/** Embedded mode: the one process's memory (each write runs to its end before another starts). */
export class MemoryRoutingStore extends RoutingStore {
  private readonly table = new Map<string, string>();

  read(field: string): Promise<RoutingRead> {
    return Promise.resolve({ value: this.table.get(field) ?? null, built: this.table.has(BUILT) });
  }

  ticket(): Promise<number> {
    const next = Number(this.table.get(TICKETS) ?? 0) + 1;
    this.table.set(TICKETS, String(next));
    return Promise.resolve(next);
  }

  protected write(users: UserRoutings, ticket: number, full: boolean): Promise<void> {
    const all = new Map(users);
    if (full) {
      for (const field of this.table.keys()) {
        const userId = field.startsWith(USER_PREFIX) ? field.slice(USER_PREFIX.length) : null;
        if (userId !== null && !all.has(userId)) all.set(userId, new Map());
      }
    }
    for (const [userId, routings] of all) {
      const written = this.table.get(ticketField(userId));
      if (written !== undefined && Number(written) > ticket) continue; // a newer read is there
      const old = this.table.get(userField(userId));
      for (const field of old ? (JSON.parse(old) as string[]) : [])
        if (!routings.has(field)) this.table.delete(field);
      for (const [field, value] of routings) this.table.set(field, value);
      if (routings.size) this.table.set(userField(userId), JSON.stringify([...routings.keys()]));
      else this.table.delete(userField(userId));
      this.table.set(ticketField(userId), String(ticket));
    }
    if (full) this.table.set(BUILT, new Date().toISOString());
    return Promise.resolve();
  }
}

/**
 * The Redis side of `RoutingStore.write`, in one script so no other write lands between an
 * owner's ticket check and its fields. KEYS[1] the table; ARGV: ticket, '1' for a full rebuild,
 * the owners' routings as JSON `{user_id: {field: sealed}}`, the owner-index and ticket field
 * prefixes, the complete marker and its value, and the owners the same full rebuild wrote in its
 * earlier calls (JSON list), which its last call does not take for owners that are gone.
 */
const WRITE_SCRIPT = `
local key, ticket, full = KEYS[1], tonumber(ARGV[1]), ARGV[2] == '1'
local users, userPrefix, ticketPrefix = cjson.decode(ARGV[3]), ARGV[4], ARGV[5]
local kept = {}
if full then
  for _, id in ipairs(cjson.decode(ARGV[8])) do kept[id] = true end
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, #userPrefix) == userPrefix then
      local id = string.sub(field, #userPrefix + 1)
      if users[id] == nil and not kept[id] then users[id] = {} end
    end
  end
end
for id, routings in pairs(users) do
  local written = redis.call('HGET', key, ticketPrefix .. id)
  if not written or tonumber(written) <= ticket then
    local old = redis.call('HGET', key, userPrefix .. id)
    if old then
      for _, field in ipairs(cjson.decode(old)) do
        if routings[field] == nil then redis.call('HDEL', key, field) end
      end
    end
    local names = {}
    for field, value in pairs(routings) do
      redis.call('HSET', key, field, value)
      names[#names + 1] = field
    end
    if #names > 0 then
      redis.call('HSET', key, userPrefix .. id, cjson.encode(names))
    else
      redis.call('HDEL', key, userPrefix .. id)
    end
    redis.call('HSET', key, ticketPrefix .. id, ticket)
  end
end
if full then redis.call('HSET', key, ARGV[6], ARGV[7]) end
return 1
`;

/** About how many bytes of routings one write to Redis carries. */
export const ROUTING_CHUNK_BYTES = 4 * 1024 * 1024;

/** `users` cut into runs of whole owners of about `maxBytes` each; always at least one (maybe empty). */
export function chunkRoutings(
  users: UserRoutings,
  maxBytes: number,
): [string, Map<string, string>][][] {
  const chunks: [string, Map<string, string>][][] = [[]];
  let bytes = 0;
  for (const [userId, routings] of users) {
    let size = userId.length;
    for (const [field, value] of routings) size += field.length + value.length;
    if (bytes > 0 && bytes + size > maxBytes) {
      chunks.push([]);
      bytes = 0;
    }
    chunks.at(-1)!.push([userId, routings]);
    bytes += size;
  }
  return chunks;
}

/**
 * Shared by every process: the hash `<QUEUE_PREFIX>:routing`. Lookups read it on a fail-fast
 * connection (Redis down: the lookup falls back to the database at once). Rebuilds write it in one
 * script on a connection that waits for Redis only while it first connects: once it has lost Redis,
 * writes fail at once until it is back (a configuration write must not wait on Redis), and
 * `onRecovered` listeners then rebuild what they could not write.
 */
export class RedisRoutingStore extends RoutingStore implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly reader: RedisConnection;
  private readonly writer: GuardedRedis;
  private readonly key: string;

  constructor(
    target: RedisTarget,
    prefix: string,
    /** About how many bytes of routings one script call carries. */
    private readonly chunkBytes = ROUTING_CHUNK_BYTES,
  ) {
    super();
    this.key = `${prefix}:routing`;
    this.shared = sharedFailFastRedis(target);
    this.reader = this.shared.connection;
    this.writer = new GuardedRedis(target, 'the routing table is not written');
  }

  override onRecovered(listener: () => void): void {
    this.writer.onRecovered(listener);
  }

  async read(field: string): Promise<RoutingRead> {
    const [value, built] = await this.reader.hmget(this.key, field, BUILT);
    return { value, built: built !== null };
  }

  override async claimPeriodicRebuild(ttlMs: number): Promise<boolean> {
    const lease = `${this.key}:periodic-rebuild`;
    return (await this.writer.connection().set(lease, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async ticket(): Promise<number> {
    return this.writer.connection().hincrby(this.key, TICKETS, 1);
  }

  protected async write(users: UserRoutings, ticket: number, full: boolean): Promise<void> {
    // One call per chunk: a whole table in one script would hold Redis for its length and can
    // exceed what one command may carry. Each owner is still written whole, after its ticket check;
    // a full rebuild's last call removes the owners it did not read and marks the table complete.
    const chunks = chunkRoutings(users, this.chunkBytes);
    const written: string[] = [];
    for (const [i, chunk] of chunks.entries()) {
      const last = i === chunks.length - 1;
      await this.writer
        .connection()
        .eval(
          WRITE_SCRIPT,
          1,
          this.key,
          String(ticket),
          full && last ? '1' : '0',
          JSON.stringify(Object.fromEntries(chunk.map(([id, r]) => [id, Object.fromEntries(r)]))),
          USER_PREFIX,
          ticketField(''),
          BUILT,
          new Date().toISOString(),
          JSON.stringify(written),
        );
      written.push(...chunk.map(([id]) => id));
    }
  }

  onModuleDestroy(): void {
    this.shared.release();
    this.writer.disconnect();
  }
}
