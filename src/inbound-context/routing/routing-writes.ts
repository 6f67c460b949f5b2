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

/**
 * What a lookup's routing is made of, by table name (most belong to other modules): a committed
 * write to any of them rebuilds the routing of the owners it touched.
 */
export const ROUTING_TABLES: ReadonlySet<string> = new Set([
  'inbound_mappings',
  'assistants',
  'assistant_versions',
  'inbound_context_strategies',
  'secrets',
  'users',
]);

/** The owners whose routing a committed write changed; null when a write did not say (rebuild all). */
export type TouchedOwners = Set<string> | null;

const PENDING = 'routingWrites:owners';

/**
 * Like `onCommittedWrites`, but remembers whose rows were written (`user_id` of the entity or of
 * the row it replaced; a bulk `update(criteria, values)` names nobody, so it rebuilds everything)
 * and tells `listener` once the outermost transaction commits. TypeORM awaits the listener before
 * the writing call returns, so the routing is current when the API answers the change.
 */
class RoutingWrites implements EntitySubscriberInterface {
  constructor(private readonly listener: (owners: TouchedOwners) => Promise<void> | void) {}

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
    const data = event.queryRunner.data as Record<string, unknown>;
    if (event.queryRunner.isTransactionActive || !(PENDING in data)) return;
    const owners = data[PENDING] as TouchedOwners;
    delete data[PENDING];
    return this.listener(owners);
  }

  private written(table: string, runner: QueryRunner, rows: unknown[]): Promise<void> | void {
    if (!ROUTING_TABLES.has(table)) return;
    const owners = ownersOf(rows);
    if (!runner.isTransactionActive) return this.listener(owners);
    const data = runner.data as Record<string, unknown>;
    const before = PENDING in data ? (data[PENDING] as TouchedOwners) : new Set<string>();
    data[PENDING] = before && owners ? new Set([...before, ...owners]) : null;
  }
}

function ownersOf(rows: unknown[]): TouchedOwners {
  const owners = new Set<string>();
  for (const row of rows) {
    const userId = (row as { user_id?: unknown } | undefined)?.user_id;
    if (typeof userId === 'string') owners.add(userId);
  }
  return owners.size ? owners : null;
}

/** Registers `listener` for every committed write, through `dataSource`, to a routing table. */
export function onRoutingWrites(
  dataSource: DataSource,
  listener: (owners: TouchedOwners) => Promise<void> | void,
): void {
  dataSource.subscribers.push(new RoutingWrites(listener));
}
