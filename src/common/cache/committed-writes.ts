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

/** One statement's write to a watched table, as TypeORM reports it. */
export interface TrackedWrite {
  /** The table written (by name). */
  readonly table: string;
  /**
   * The entity written and, for an update or a removal, the row as TypeORM loaded it. Either may
   * be missing or partial: a bulk `update(criteria, values)` gives the values only.
   */
  readonly rows: readonly unknown[];
}

/** What a listener gathers from the writes of one transaction (or of one write outside any). */
export interface WriteAccumulator<T> {
  /** The tables watched, by name. */
  readonly tables: Iterable<string>;
  /** The value before the first write. */
  start(): T;
  /** `value` with `write` added (it may be changed in place and returned). */
  add(value: T, write: TrackedWrite): T;
}

/**
 * Told what the writes of a committed transaction added up to, with the writer's query runner (its
 * transaction over, its connection held until the listener is done); TypeORM awaits a returned
 * promise before the writing call goes on.
 */
export type AccumulatedWritesListener<T> = (value: T, runner: QueryRunner) => Promise<void> | void;

/** Told once a write to a watched table is committed; TypeORM awaits a returned promise. */
export type CommittedWriteListener = () => Promise<void> | void;

let trackers = 0;

/**
 * A TypeORM subscriber that adds up the writes to the accumulator's tables and tells the listener
 * about them: after the statement outside a transaction, after the outermost COMMIT inside one (a
 * released savepoint leaves the transaction open), never after the outermost rollback. A savepoint
 * rolled back also leaves the transaction open: what was written in it still counts if the
 * transaction then commits. Writes made with raw SQL are not seen.
 */
class CommittedWrites<T> implements EntitySubscriberInterface {
  private readonly tables: ReadonlySet<string>;
  /** Where, on a transaction's query runner, what was written in it so far is kept. */
  private readonly pending = `committedWrites:${(trackers += 1)}`;

  constructor(
    private readonly accumulator: WriteAccumulator<T>,
    private readonly listener: AccumulatedWritesListener<T>,
  ) {
    this.tables = new Set(accumulator.tables);
  }

  afterInsert(event: InsertEvent<unknown>): Promise<void> | void {
    return this.written(event.metadata.tableName, event.queryRunner, [event.entity]);
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> | void {
    const { entity, databaseEntity } = event;
    return this.written(event.metadata.tableName, event.queryRunner, [entity, databaseEntity]);
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> | void {
    const { entity, databaseEntity } = event;
    return this.written(event.metadata.tableName, event.queryRunner, [entity, databaseEntity]);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[this.pending];
  }

  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    const runner = event.queryRunner;
    const data = runner.data as Record<string, { value: T } | undefined>;
    const pending = data[this.pending];
    if (runner.isTransactionActive || !pending) return;
    delete data[this.pending];
    return this.listener(pending.value, runner);
  }

  private written(table: string, runner: QueryRunner, rows: unknown[]): Promise<void> | void {
    if (!this.tables.has(table)) return;
    const { accumulator } = this;
    if (!runner.isTransactionActive) {
      return this.listener(accumulator.add(accumulator.start(), { table, rows }), runner);
    }
    const data = runner.data as Record<string, { value: T } | undefined>;
    const pending = (data[this.pending] ??= { value: accumulator.start() });
    pending.value = accumulator.add(pending.value, { table, rows });
  }
}

/**
 * Registers `listener` for what every committed write, through `dataSource`, to one of the
 * accumulator's tables adds up to: one call for each committed transaction that wrote to them
 * (with all its writes), or for each such write made outside a transaction.
 */
export function onAccumulatedWrites<T>(
  dataSource: DataSource,
  accumulator: WriteAccumulator<T>,
  listener: AccumulatedWritesListener<T>,
): void {
  dataSource.subscribers.push(new CommittedWrites(accumulator, listener));
}

/** Registers `listener` for every committed write, through `dataSource`, to one of `tables`. */
export function onCommittedWrites(
  dataSource: DataSource,
  tables: Iterable<string>,
  listener: CommittedWriteListener,
): void {
  const accumulator = { tables, start: () => undefined, add: () => undefined };
  onAccumulatedWrites(dataSource, accumulator, () => listener());
}
