import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  DataSource,
  EntityManager,
  ObjectLiteral,
  QueryRunner,
  ReplicationMode,
  SelectQueryBuilder,
} from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/** The transaction whose work is running: a `runTransaction` called from it joins it. */
interface Ambient {
  dataSource: DataSource;
  em: EntityManager;
  /** False once its work has settled (a promise it left behind must not join a finished one). */
  open: boolean;
}

const ambient = new AsyncLocalStorage<Ambient>();

/**
 * Runs `work` in a transaction. On MySQL it is an ordinary transaction (optionally at
 * `isolation`). The embedded SQLite driver shares one connection across the process, where two
 * concurrent `transaction()` calls would silently nest as savepoints and one's rollback could undo
 * the other's writes, so there every transaction of the process waits its turn on one queue.
 *
 * Called from within another `runTransaction`'s work (at any depth of calls), it joins that outer
 * transaction instead: `work` gets the outer entity manager, its writes commit or roll back with
 * the outer ones, and after-commit listeners hear of them after the outer COMMIT (none on a
 * rollback). The outer `isolation` stands. Reads made meanwhile through the data source rather
 * than `em` (repositories, `dataSource.query`) run on the transaction's connection too, so they see
 * its writes (on SQLite there is only that connection).
 */
export function runTransaction<T>(
  dataSource: DataSource,
  work: (em: EntityManager) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  const outer = ambient.getStore();
  if (outer?.open && outer.dataSource === dataSource) return work(outer.em);
  const inAmbient = (em: EntityManager) => runAmbient(dataSource, em, work);
  if (dataSource.options.type === 'mysql') {
    shareTransactionConnection(dataSource);
    return isolation
      ? dataSource.transaction(isolation, inAmbient)
      : dataSource.transaction(inAmbient);
  }
  const previous = sqliteQueues.get(dataSource) ?? Promise.resolve();
  const run = previous.then(() => dataSource.transaction(inAmbient));
  sqliteQueues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

async function runAmbient<T>(
  dataSource: DataSource,
  em: EntityManager,
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  const store: Ambient = { dataSource, em, open: true };
  try {
    return await ambient.run(store, () => work(em));
  } finally {
    store.open = false;
  }
}

const sharing = new WeakSet<DataSource>();

/**
 * Makes `dataSource.createQueryRunner()` (what every read without an entity manager of its own
 * asks for) answer, inside a transaction's work, that transaction's query runner, with a
 * `release` that leaves it to the transaction. Outside one it is unchanged.
 */
function shareTransactionConnection(dataSource: DataSource): void {
  // A data source that cannot open runners of its own (a unit test's stand-in) has none to share.
  if (sharing.has(dataSource) || typeof dataSource.createQueryRunner !== 'function') return;
  sharing.add(dataSource);
  const own = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode?: ReplicationMode): QueryRunner => {
    const store = ambient.getStore();
    const runner =
      store?.open && store.dataSource === dataSource ? store.em.queryRunner : undefined;
    if (!runner || runner.isReleased || !runner.isTransactionActive) return own(mode);
    return borrowed(runner);
  };
}

const borrowedRunners = new WeakMap<QueryRunner, QueryRunner>();

/** The transaction's runner for one more user, whose `release` does not end the transaction. */
function borrowed(runner: QueryRunner): QueryRunner {
  let view = borrowedRunners.get(runner);
  if (!view) {
    const release = () => Promise.resolve();
    view = new Proxy(runner, {
      get: (target, key, receiver) =>
        key === 'release' ? release : (Reflect.get(target, key, receiver) as unknown),
    });
    borrowedRunners.set(runner, view);
  }
  return view;
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
