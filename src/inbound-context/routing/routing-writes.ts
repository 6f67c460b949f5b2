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
import { AssistantRepository } from '../../assistant/assistant.repository';
import { PublishedVersions } from '../../assistant/published-versions';
import { AuditTrail } from '../../audit/audit-trail';
import { WebhookSecretsService } from '../../auth/webhook-secrets.service';
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
const PENDING = 'routingWrites:pending';

/** What one transaction wrote so far. */
interface Pending {
  /** Owners named by the routing tables' rows written. */
  named: Set<string>;
  /** A routing table's row was written without naming its owner (a bulk `update(criteria, values)`). */
  unnamed: boolean;
  /** Owners of the audit entries written in the same transaction. */
  audited: Set<string>;
  routing: boolean;
}

/**
 * Like `onCommittedWrites`, but remembers whose rows were written and tells `listener` once the
 * outermost transaction commits. A bulk `update(criteria, values)` does not name its rows' owner:
 * the owner of the audit entry written in the same transaction stands in (every configuration
 * change writes one); with neither, everything is rebuilt. TypeORM awaits the listener before the
 * writing call returns, so the routing is current when the API answers the change.
 */
class RoutingWrites implements EntitySubscriberInterface {
  constructor(private readonly listener: RoutingWriteListener) {}

  afterInsert(event: InsertEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner, [event.entity]);
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner, [
      event.entity,
      event.databaseEntity,
    ]);
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner, [
      event.entity,
      event.databaseEntity,
    ]);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[PENDING];
  }

  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    const data = event.queryRunner.data as Record<string, Pending | undefined>;
    const pending = data[PENDING];
    if (event.queryRunner.isTransactionActive || !pending) return;
    delete data[PENDING];
    if (!pending.routing) return;
    const runner = event.queryRunner;
    if (!pending.unnamed) return this.listener(pending.named, runner);
    if (!pending.audited.size) return this.listener(null, runner);
    return this.listener(new Set([...pending.named, ...pending.audited]), runner);
  }

  private written(table: string, runner: QueryRunner, rows: unknown[]): Promise<void> | void {
    const routing = ROUTING_TABLES.has(table);
    if (!routing && table !== AUDIT_TABLE) return;
    const owners = ownersOf(rows);
    if (!runner.isTransactionActive) {
      if (routing) return this.listener(owners.size ? owners : null, runner);
      return;
    }
    const data = runner.data as Record<string, Pending | undefined>;
    const pending = (data[PENDING] ??= {
      named: new Set(),
      unnamed: false,
      audited: new Set(),
      routing: false,
    });
    for (const owner of owners) (routing ? pending.named : pending.audited).add(owner);
    if (routing) {
      pending.routing = true;
      if (!owners.size) pending.unnamed = true;
    }
  }
}

function ownersOf(rows: unknown[]): Set<string> {
  const owners = new Set<string>();
  for (const row of rows) {
    const userId = (row as { user_id?: unknown } | undefined)?.user_id;
    if (typeof userId === 'string') owners.add(userId);
  }
  return owners;
}

/** Registers `listener` for every committed write, through `dataSource`, to a routing table. */
export function onRoutingWrites(dataSource: DataSource, listener: RoutingWriteListener): void {
  dataSource.subscribers.push(new RoutingWrites(listener));
}
