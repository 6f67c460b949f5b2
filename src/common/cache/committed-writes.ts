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

/** Told once a write to a watched table is committed; TypeORM awaits a returned promise. */
export type CommittedWriteListener = () => Promise<void> | void;

let watchers = 0;

/**
 * A TypeORM subscriber that tells `listener` about every committed write to one of `tables` (by
 * table name): after the statement outside a transaction, after the outermost COMMIT inside one
 * (a released savepoint leaves the transaction open), never after a rollback. TypeORM awaits what
 * the listener returns before the writing call goes on. Writes made with raw SQL are not seen.
 */
class CommittedWrites implements EntitySubscriberInterface {
  private readonly tables: ReadonlySet<string>;
  /** Marks, on a transaction's query runner, that a watched table was written in it. */
  private readonly pending = `committedWrites:${(watchers += 1)}`;

  constructor(
    tables: Iterable<string>,
    private readonly listener: CommittedWriteListener,
  ) {
    this.tables = new Set(tables);
  }

  afterInsert(event: InsertEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner);
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner);
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[this.pending];
  }

  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    if (event.queryRunner.isTransactionActive || !event.queryRunner.data[this.pending]) return;
    delete event.queryRunner.data[this.pending];
    return this.listener();
  }

  private written(table: string, queryRunner: QueryRunner): Promise<void> | void {
    if (!this.tables.has(table)) return;
    if (queryRunner.isTransactionActive) {
      queryRunner.data[this.pending] = true;
      return;
    }
    return this.listener();
  }
}

/** Registers `listener` for every committed write, through `dataSource`, to one of `tables`. */
export function onCommittedWrites(
  dataSource: DataSource,
  tables: Iterable<string>,
  listener: CommittedWriteListener,
): void {
  dataSource.subscribers.push(new CommittedWrites(tables, listener));
}
