import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { signingSecretsOf } from '../../auth/webhook-secrets.service';
import { loggableError } from '../../common/errors/loggable-error';
import { normalizePhoneNumber } from '../../common/validation/phone-number';
import type { InboundContextLookupJobData } from '../../contracts/inbound-context-lookup.contract';
import { SecretCipher } from '../../secret/secret-cipher';
import type { InboundPolicy } from '../../inbound-policy/policy.types';
import { FIELD, openRecord, routingOf, type Routing, type RoutingEntry } from './routing-entry';
import { HealthSubscribers } from './health-subscribers';
import { RoutingStore } from './routing-store';

/** A lookup's routing as read from the table: the mapping, or null when the number has none. */
export interface TableHit {
  routing: Routing | null;
}

/**
 * The lookup's one read: the job's entry and the shared records it names from the routing table
 * (Redis, one script; memory in embedded mode), no database. The owner's record also says whether
 * its endpoint health is counted (noted for the hook that counts the entry the lookup writes). Undefined when the table cannot
 * answer (Redis unreachable, or not built yet): the lookup then reads the database as before.
 * Each process keeps the last few thousand opened records, reused while the stored text is
 * unchanged (a record many numbers share is decrypted once).
 */
@Injectable()
export class RoutingTable {
  private readonly logger = new Logger(RoutingTable.name);
  private readonly opened = new LRUCache<string, { text: string; value: unknown }>({
    max: 5_000,
  });

  constructor(
    private readonly store: RoutingStore,
    private readonly cipher: SecretCipher,
    private readonly healthSubscribers: HealthSubscribers,
  ) {}

  async find(data: InboundContextLookupJobData): Promise<TableHit | undefined> {
    const by = data.inbound_id ? 'id' : 'number';
    const key = data.inbound_id ?? normalizePhoneNumber(data.inbound_number ?? '');
    try {
      const { entry, records, built } = await this.store.read(by, key);
      const parsed = entry ? (JSON.parse(entry) as RoutingEntry) : null;
      if (!parsed || parsed.d) return built ? { routing: null } : undefined;
      const routing = routingOf(parsed, (field) => this.open(field, records.get(field)));
      // Whether the entry this lookup writes counts for endpoint health: the owner's record says.
      this.healthSubscribers.note(parsed.u, routing.owner?.h === 1);
      if (parsed.y)
        routing.found.mapping.policy =
          this.open<InboundPolicy>(FIELD.policy(parsed.i), parsed.y) ?? null;
      return { routing };
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error) },
        'could not read the lookup routing; reading the database',
      );
      return undefined;
    }
  }

  /** A record opened (shared by the lookups that read it while unchanged), undefined when the table has none. */
  private open<T>(field: string, text: string | undefined): T | null | undefined {
    if (text === undefined) return undefined;
    const kept = this.opened.get(field);
    if (kept?.text === text) return kept.value as T | null;
    const value = openRecord<T>(this.cipher, field, text);
    this.opened.set(field, { text, value });
    return value;
  }
}

/** The owner's signing secrets now (the previous one while its grace lasts); null when it has none yet. */
export function signingSecretsNow(routing: Routing): string[] | null {
  return routing.owner ? signingSecretsOf(routing.owner) : null;
}
