import type { OnModuleDestroy } from '@nestjs/common';
import { GuardedRedis } from '../../common/redis/guarded-redis';
import { failFastRedis, type RedisConnection } from '../../common/redis/redis-connection';
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

  protected abstract fields(names: string[]): Promise<(string | null)[]>;
  protected abstract allFields(): Promise<string[]>;
  protected abstract apply(set: Map<string, string>, remove: string[]): Promise<void>;

  /** Replaces the routings of `users` (every owner listed, with or without mappings left). */
  async replaceUsers(users: UserRoutings, ticket: number): Promise<void> {
    const ids = [...users.keys()];
    if (!ids.length) return;
    const previous = await this.fields(ids.flatMap((id) => [userField(id), ticketField(id)]));
    const set = new Map<string, string>();
    const remove: string[] = [];
    ids.forEach((userId, i) => {
      const [index, written] = [previous[2 * i], previous[2 * i + 1]];
      if (written !== null && Number(written) > ticket) return; // a newer read is there already
      const routings = users.get(userId)!;
      for (const [field, value] of routings) set.set(field, value);
      const old = index ? (JSON.parse(index) as string[]) : [];
      remove.push(...old.filter((field) => !routings.has(field)));
      if (routings.size) set.set(userField(userId), JSON.stringify([...routings.keys()]));
      else remove.push(userField(userId));
      set.set(ticketField(userId), String(ticket));
    });
    await this.apply(set, remove);
  }

  /** Replaces the whole table with `users`' routings (owners not in it lose theirs) and marks it complete. */
  async replaceAll(users: UserRoutings, ticket: number): Promise<void> {
    const all = new Map(users);
    for (const field of await this.allFields()) {
      if (field.startsWith(USER_PREFIX)) {
        const userId = field.slice(USER_PREFIX.length);
        if (!all.has(userId)) all.set(userId, new Map());
      }
    }
    await this.replaceUsers(all, ticket);
    await this.apply(new Map([[BUILT, new Date().toISOString()]]), []);
  }
}

/** Embedded mode: the one process's memory. */
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
 * connection (Redis down: the lookup falls back to the database at once). Rebuilds write it in one
 * MULTI on a connection that waits for Redis only while it first connects: once it has lost Redis,
 * writes fail at once until it is back (a configuration write must not wait on Redis), and
 * `onRecovered` listeners then rebuild what they could not write.
 */
export class RedisRoutingStore extends RoutingStore implements OnModuleDestroy {
  private readonly reader: RedisConnection;
  private readonly writer: GuardedRedis;
  private readonly key: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:routing`;
    this.reader = failFastRedis(target);
    this.writer = new GuardedRedis(target, 'the routing table is not written');
  }

  override onRecovered(listener: () => void): void {
    this.writer.onRecovered(listener);
  }

  async read(field: string): Promise<RoutingRead> {
    const [value, built] = await this.reader.hmget(this.key, field, BUILT);
    return { value, built: built !== null };
  }

  async ticket(): Promise<number> {
    return this.writer.connection().hincrby(this.key, TICKETS, 1);
  }

  protected fields(names: string[]): Promise<(string | null)[]> {
    return this.writer.connection().hmget(this.key, ...names);
  }

  protected allFields(): Promise<string[]> {
    return this.writer.connection().hkeys(this.key);
  }

  protected async apply(set: Map<string, string>, remove: string[]): Promise<void> {
    const multi = this.writer.connection().multi();
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
