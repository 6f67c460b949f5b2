import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import type {
  DataSource,
  EntitySubscriberInterface,
  InsertEvent,
  QueryRunner,
  RemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { InvalidationFeed } from '../common/cache/invalidation-feed';

/**
 * What a lookup reads on every call (see LookupRepository); a change to any of these tables
 * empties every lookup cache. By table name: two of them belong to other modules.
 */
const WATCHED: ReadonlySet<string> = new Set([
  'inbound_mappings',
  'assistants',
  'inbound_context_strategies',
  'users',
]);

/** Backstop for a change whose announcement was lost (Redis down at that moment). */
export const LOOKUP_CACHE_TTL_MS = 30_000;

const PENDING = 'lookupConfigChanged';

/**
 * Announces, through Redis pub/sub on `<QUEUE_PREFIX>:inbound-context:config-changed` (the same
 * mechanism as API key revocations), that a record an inbound lookup reads has changed.
 */
@Injectable()
export class LookupConfigChanges extends InvalidationFeed {
  constructor(config: ConfigService<AppConfig, true>) {
    super(config, 'inbound-context:config-changed', 'LookupConfigChanges');
  }

  onChanged(listener: () => void): void {
    this.listen(() => listener());
  }

  changed(): Promise<void> {
    return this.announce('changed');
  }
}

/**
 * Per-process cache of what an inbound lookup resolves on every call (mapping, assistant, strategy
 * and the owner's row with the signing secret), keyed by how the job names the mapping. Every
 * committed write to those tables, from any process, empties it: this process's writes through
 * TypeORM are seen by the subscriber below once their transaction commits (or at once outside a
 * transaction) and announced to every process. A process whose subscription is down reads the
 * database. A load that started before an invalidation is not stored, so a value read just
 * before a commit is not kept after it. Bound: a change reaches another process's lookups within
 * the pub/sub delivery time (milliseconds); were an announcement lost, within the TTL.
 */
@Injectable()
export class LookupCache<T extends object = object> implements EntitySubscriberInterface {
  private readonly entries = new LRUCache<string, T>({ max: 10_000, ttl: LOOKUP_CACHE_TTL_MS });
  private generation = 0;

  constructor(
    private readonly changes: LookupConfigChanges,
    @InjectDataSource() dataSource: DataSource,
  ) {
    dataSource.subscribers.push(this);
    changes.onChanged(() => this.clear());
  }

  /** The cached value of `key`, or `load()`'s (cached unless null or invalidated meanwhile). */
  async get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (!this.changes.live) return load();
    const hit = this.entries.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const value = await load();
    if (value && generation === this.generation && this.changes.live) this.entries.set(key, value);
    return value;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  afterInsert(event: InsertEvent<unknown>): void {
    this.written(event.metadata.tableName, event.queryRunner);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    this.written(event.metadata.tableName, event.queryRunner);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    this.written(event.metadata.tableName, event.queryRunner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[PENDING];
  }

  /** After the outermost commit (a released savepoint leaves the transaction open). */
  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (event.queryRunner.isTransactionActive || !event.queryRunner.data[PENDING]) return;
    delete event.queryRunner.data[PENDING];
    void this.changes.changed();
  }

  private written(table: string, queryRunner: QueryRunner): void {
    if (!WATCHED.has(table)) return;
    // Inside a transaction: announce once it commits, so no process re-reads the old rows after it.
    if (queryRunner.isTransactionActive) queryRunner.data[PENDING] = true;
    else void this.changes.changed();
  }
}
