import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` in a transaction. On MySQL it is an ordinary transaction (optionally at
 * `isolation`). The embedded SQLite driver shares one connection across the process, where two
 * concurrent `transaction()` calls would silently nest as savepoints and one's rollback could undo
 * the other's writes, so there every transaction of the process waits its turn on one queue.
 */
export function runTransaction<T>(
  dataSource: DataSource,
  work: (em: EntityManager) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  if (dataSource.options.type === 'mysql') {
    return isolation ? dataSource.transaction(isolation, work) : dataSource.transaction(work);
  }
  const previous = sqliteQueues.get(dataSource) ?? Promise.resolve();
  const run = previous.then(() => dataSource.transaction(work));
  sqliteQueues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Locks the rows `qb` reads for the rest of the caller's transaction on MySQL. SQLite has no row
 * locks; there `runTransaction` already runs one transaction at a time.
 */
export function lockForWrite<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
): SelectQueryBuilder<E> {
  return qb.connection.options.type === 'mysql' ? qb.setLock('pessimistic_write') : qb;
}

export const isMysql = (dataSource: DataSource): boolean => dataSource.options.type === 'mysql';
