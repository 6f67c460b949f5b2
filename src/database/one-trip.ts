import type { Pool, PoolConnection, PoolOptions } from 'mysql2';
import { QueryFailedError, type DataSource } from 'typeorm';

/** One SQL statement with `?` placeholders and its values. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** The parts of TypeORM's MySQL driver the pool is built from (public at run time, not typed). */
interface MysqlDriverInternals {
  options: { replication?: { master: unknown }; maxQueryExecutionTime?: number };
  mysql: { createPool(options: PoolOptions): Pool };
  createConnectionOptions(options: unknown, credentials: unknown): PoolOptions;
}

/**
 * Short write transactions sent to MySQL in one round trip: `START TRANSACTION; <statements>;
 * COMMIT` as one multi-statement query, instead of a round trip per statement through TypeORM.
 * They run on a small pool of their own, built with TypeORM's settings for the primary (URL,
 * time zone, charset, timeouts) plus `multipleStatements`, which TypeORM's pool never gets: there
 * it would let any injection run statements of its own. Values are bound by mysql2 on the client
 * (`?`), so the SQL text holds only the statements' own identifiers and placeholders.
 *
 * MySQL stops at the first statement that fails and leaves the transaction open on that
 * connection: it is rolled back there before the connection goes back to the pool (destroyed
 * when even that fails), then the statement's error is thrown as TypeORM would
 * (`QueryFailedError`). The statements are logged through TypeORM's logger as it logs its own.
 */
export class OneTripTransactions {
  private pool?: Pool;

  constructor(
    private readonly dataSource: DataSource,
    private readonly connectionLimit: number,
  ) {}

  /** Runs `statements` in one transaction, in one round trip; each statement's result in order. */
  async run(statements: Statement[]): Promise<unknown[]> {
    const sql = ['START TRANSACTION', ...statements.map((s) => s.sql), 'COMMIT'].join(';\n');
    const params = statements.flatMap((s) => s.params);
    const { logger } = this.dataSource;
    logger.logQuery('START TRANSACTION');
    for (const statement of statements) logger.logQuery(statement.sql, statement.params);
    logger.logQuery('COMMIT');
    const connection = await this.acquire();
    const started = Date.now();
    try {
      const results = await send(connection, sql, params);
      connection.release();
      this.logIfSlow(Date.now() - started, sql, params);
      return (results as unknown[]).slice(1, -1);
    } catch (error) {
      logger.logQueryError(error as Error, sql, params);
      await rollback(connection);
      throw new QueryFailedError(sql, params, error as Error);
    }
  }

  /** Closes the pool once its connections are back (a later `run` fails). */
  end(): Promise<void> {
    const pool = this.pool;
    if (!pool) return Promise.resolve();
    return new Promise((resolve, reject) => pool.end((error) => (error ? reject(error) : resolve())));
  }

  private acquire(): Promise<PoolConnection> {
    this.pool ??= this.createPool();
    const pool = this.pool;
    return new Promise((resolve, reject) =>
      pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    );
  }

  private createPool(): Pool {
    const driver = this.dataSource.driver as unknown as MysqlDriverInternals;
    // The primary's credentials even when replicas are configured: these are writes.
    const credentials = driver.options.replication?.master ?? driver.options;
    return driver.mysql.createPool({
      ...driver.createConnectionOptions(driver.options, credentials),
      connectionLimit: this.connectionLimit,
      multipleStatements: true,
    });
  }

  private logIfSlow(ms: number, sql: string, params: unknown[]): void {
    const max = (this.dataSource.driver as unknown as MysqlDriverInternals).options
      .maxQueryExecutionTime;
    if (max && ms > max) this.dataSource.logger.logQuerySlow(ms, sql, params);
  }
}

function send(connection: PoolConnection, sql: string, params: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) =>
    connection.query(sql, params, (error, results) => (error ? reject(error) : resolve(results))),
  );
}

/** Ends the transaction a failed script may have left open, then gives the connection back. */
async function rollback(connection: PoolConnection): Promise<void> {
  try {
    await send(connection, 'ROLLBACK', []);
  } catch {
    connection.destroy();
    return;
  }
  connection.release();
}
