import { DataSource, type DataSourceOptions } from 'typeorm';

/** Connect errors that mean "nothing answers there (yet)", as opposed to a wrong user, password or database. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
]);

export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

/** The parts of TypeORM's MySQL driver a deferred start uses (public at run time, not typed). */
interface MysqlDriverInternals {
  options: DataSourceOptions & { replication?: unknown };
  mysql: { createPool(options: unknown): unknown };
  pool?: unknown;
  createConnectionOptions(options: unknown, credentials: unknown): unknown;
}

/**
 * Initializes `options`' data source; when MySQL is unreachable, starts it anyway with a pool that
 * connects on first use (so its queries fail while MySQL is down and succeed once it is back), as
 * a pool does when the server goes away under a running process. For processes that have work to
 * do without MySQL (a worker answers lookups from the routing table). A wrong user, password or
 * database still fails the start; so does a replicated setup (its pools are not deferred).
 */
export async function initializeOrDefer(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = new DataSource(options);
  try {
    return await dataSource.initialize();
  } catch (error) {
    const driver = dataSource.driver as unknown as MysqlDriverInternals;
    if (!isUnreachable(error) || options.type !== 'mysql' || driver.options.replication)
      throw error;
    driver.pool = driver.mysql.createPool(
      driver.createConnectionOptions(driver.options, driver.options),
    );
    Object.assign(dataSource, { isInitialized: true });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    return dataSource;
  }
}
