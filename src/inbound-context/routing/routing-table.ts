import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { signingSecretsOf } from '../../auth/webhook-secrets.service';
import { loggableError } from '../../common/errors/loggable-error';
import type { InboundContextLookupJobData } from '../../contracts/inbound-context-lookup.contract';
import { SecretCipher } from '../../secret/secret-cipher';
import { mappingKey } from '../utils/lookup-plan.util';
import { openRouting, ROUTING_FORMAT, type Routing } from './routing-entry';
import { RoutingStore } from './routing-store';

/** A lookup's routing as read from the table: the mapping, or null when the number has none. */
export interface TableHit {
  routing: Routing | null;
}

/**
 * The lookup's one read: the job's mapping from the routing table (Redis; memory in embedded
 * mode), no database. Undefined when the table cannot answer (Redis unreachable, or not built
 * yet): the lookup then reads the database as before. Each process keeps the last few thousand
 * decrypted entries, reused while the stored text is unchanged.
 */
@Injectable()
export class RoutingTable {
  private readonly logger = new Logger(RoutingTable.name);
  private readonly opened = new LRUCache<string, { text: string; routing: Routing }>({
    max: 5_000,
  });

  constructor(
    private readonly store: RoutingStore,
    private readonly cipher: SecretCipher,
  ) {}

  async find(data: InboundContextLookupJobData): Promise<TableHit | undefined> {
    const field = `${ROUTING_FORMAT}:${mappingKey(data)}`;
    try {
      const { value, built } = await this.store.read(field);
      if (value === null) return built ? { routing: null } : undefined;
      const kept = this.opened.get(field);
      if (kept?.text === value) return { routing: kept.routing };
      const routing = openRouting(this.cipher, field, value);
      this.opened.set(field, { text: value, routing });
      return { routing };
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error) },
        'could not read the lookup routing; reading the database',
      );
      return undefined;
    }
  }
}

/** The owner's signing secrets now (the previous one while its grace lasts); null when it has none yet. */
export function signingSecretsNow(routing: Routing): string[] | null {
  return routing.owner ? signingSecretsOf(routing.owner) : null;
}
