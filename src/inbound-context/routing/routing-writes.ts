import type { DataSource, QueryRunner } from 'typeorm';
import { AssistantRepository } from '../../assistant/assistant.repository';
import { PublishedVersions } from '../../assistant/published-versions';
import { AuditTrail } from '../../audit/audit-trail';
import { WebhookSecretsService } from '../../auth/webhook-secrets.service';
import { onAccumulatedWrites, type WriteAccumulator } from '../../common/cache/committed-writes';
import { tableNameOf } from '../../database/table-name';
import { SecretRepository } from '../../secret/secret.repository';
import { InboundContextStrategyEntity } from '../inbound-context-strategy.entity';
import { InboundMappingEntity } from '../inbound-mapping.entity';

/**
 * What a lookup's routing is made of (most tables belong to other modules, and are named by their
 * owners' repositories): a committed write to any of them rebuilds the routing of the owners it
 * touched.
 */
export const ROUTING_TABLES: ReadonlySet<string> = new Set([
  tableNameOf(InboundMappingEntity),
  AssistantRepository.TABLE,
  PublishedVersions.TABLE,
  tableNameOf(InboundContextStrategyEntity),
  SecretRepository.TABLE,
  WebhookSecretsService.USERS_TABLE,
]);

/** The owners whose routing a committed write changed; null when a write did not say (rebuild all). */
export type TouchedOwners = Set<string> | null;

/**
 * Told the owners a committed write touched, with the writer's query runner: its connection is
 * free again (the transaction is over) and held until the listener is done, so a rebuild reads on
 * it instead of waiting for another connection from a pool that concurrent writers may hold.
 */
export type RoutingWriteListener = (
  owners: TouchedOwners,
  runner: QueryRunner,
) => Promise<void> | void;

/** The audit log's table: every configuration change writes its owner's entry in its transaction. */
const AUDIT_TABLE = AuditTrail.TABLE;

/** What one transaction wrote so far. */
interface Written {
  /** Owners named by the routing tables' rows written. */
  named: Set<string>;
  /** A routing table's row was written without naming its owner (a bulk `update(criteria, values)`). */
  unnamed: boolean;
  /** Owners of the audit entries written in the same transaction. */
  audited: Set<string>;
  routing: boolean;
}

/** Adds up the owners of the rows written to the routing tables and to the audit table. */
const OWNERS_WRITTEN: WriteAccumulator<Written> = {
  tables: [...ROUTING_TABLES, AUDIT_TABLE],
  start: () => ({ named: new Set(), unnamed: false, audited: new Set(), routing: false }),
  add(written, { table, rows }) {
    const routing = ROUTING_TABLES.has(table);
    const owners = ownersOf(rows);
    for (const owner of owners) (routing ? written.named : written.audited).add(owner);
    if (routing) {
      written.routing = true;
      if (!owners.size) written.unnamed = true;
    }
    return written;
  },
};

/**
 * The owners whose routing the writes changed; undefined when no routing table was written. A
 * bulk `update(criteria, values)` does not name its rows' owner: the owners of the audit entries
 * written in the same transaction stand in (every configuration change writes one); with neither,
 * null (everything is rebuilt).
 */
function touchedOwners(written: Written): TouchedOwners | undefined {
  if (!written.routing) return undefined;
  if (!written.unnamed) return written.named;
  if (!written.audited.size) return null;
  return new Set([...written.named, ...written.audited]);
}

function ownersOf(rows: readonly unknown[]): Set<string> {
  const owners = new Set<string>();
  for (const row of rows) {
    const userId = (row as { user_id?: unknown } | undefined)?.user_id;
    if (typeof userId === 'string') owners.add(userId);
  }
  return owners;
}

/**
 * Registers `listener` for every committed write, through `dataSource`, to a routing table, with
 * the owners it touched: once the outermost transaction commits, or at once outside one. TypeORM
 * awaits the listener before the writing call returns, so the routing is current when the API
 * answers the change.
 */
export function onRoutingWrites(dataSource: DataSource, listener: RoutingWriteListener): void {
  onAccumulatedWrites(dataSource, OWNERS_WRITTEN, (written, runner) => {
    const owners = touchedOwners(written);
    if (owners !== undefined) return listener(owners, runner);
  });
}
