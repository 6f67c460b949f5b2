import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { onCommittedWrites } from '../common/cache/committed-writes';
import { InvalidationFeed } from '../common/cache/invalidation-feed';
import { AssistantRepository } from '../assistant/assistant.repository';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { tableNameOf } from '../database/table-name';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';

/**
 * What a lookup reads on every call (see LookupRepository); a change to any of these tables
 * empties every lookup cache. Named by their owners: two of them belong to other modules.
 */
const WATCHED: ReadonlySet<string> = new Set([
  tableNameOf(InboundMappingEntity),
  AssistantRepository.TABLE,
  tableNameOf(InboundContextStrategyEntity),
  WebhookSecretsService.USERS_TABLE,
]);

/** Backstop for a change whose announcement was lost (Redis down at that moment). */
export const LOOKUP_CACHE_TTL_MS = 30_000;

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
 * The lookup's fallback while the routing table (routing/routing-table.ts) cannot answer (Redis
 * unreachable, or the table not built yet): a per-process cache of what an inbound lookup
 * resolves (mapping, assistant, strategy and the owner's row with the signing secret), keyed by how the job names the mapping. Every
 * committed write to those tables, from any process, empties it: this process's writes through
 * TypeORM are seen (onCommittedWrites) once their transaction commits (or at once outside a
 * transaction) and announced to every process. A process whose subscription is down reads the
 * database. A load that started before an invalidation is not stored, so a value read just
 * before a commit is not kept after it. Bound: a change reaches another process's lookups within
 * the pub/sub delivery time (milliseconds); were an announcement lost, within the TTL.
 */
@Injectable()
export class LookupCache<T extends object = object> {
  private readonly entries = new LRUCache<string, T>({ max: 10_000, ttl: LOOKUP_CACHE_TTL_MS });
  private generation = 0;

  constructor(
    private readonly changes: LookupConfigChanges,
    @InjectDataSource() dataSource: DataSource,
  ) {
    // Announced once committed; the writer does not wait for the announcement.
    onCommittedWrites(dataSource, WATCHED, () => void changes.changed());
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
}
