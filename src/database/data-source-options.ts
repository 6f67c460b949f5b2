import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { loadAppConfig, type AppConfig } from '../config/app-config';
import { TimestampsSubscriber } from './timestamps.subscriber';

const SQLITE_IN_MEMORY = ':memory:';

type DatabaseSettings = Omit<AppConfig['database'], 'replicaUrls'> & { replicaUrls?: string[] };

/**
 * One place that turns the environment into TypeORM options for the configured driver. The
 * entities are the modules' and are added above this layer (`appDataSourceOptions`), so the
 * database layer names no feature. Each driver has its own generated migration set, produced from
 * the same entities by `npm run migration:generate`.
 */
export function dataSourceOptions(
  database: DatabaseSettings = loadAppConfig().database,
): DataSourceOptions {
  const { driver } = database;
  const migrations = [
    join(__dirname, 'migrations', driver === 'mysql' ? 'mysql' : 'sqlite', '*.{ts,js}'),
  ];
  if (driver === 'mysql') {
    const url = database.url ?? undefined;
    const replicas = database.replicaUrls ?? [];
    return {
      type: 'mysql',
      connectorPackage: 'mysql2',
      ...(replicas.length > 0 && url
        ? {
            // TypeORM would send every read to a replica; the primary stays the default and only
            // the reads that may lag (see ReplicaReads) ask for a replica.
            replication: {
              master: { url },
              slaves: replicas.map((replica) => ({ url: replica })),
              defaultMode: 'master' as const,
              // A replica that fails is taken out of the pool for a while, not retried at once.
              removeNodeErrorCount: 3,
              restoreNodeTimeout: 10_000,
            },
          }
        : { url }),
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      subscribers: [TimestampsSubscriber],
      migrations,
      migrationsTableName: 'migrations',
      // Fail a connection attempt in 3 s rather than mysql2's 10 s when the server does not answer.
      extra: { connectionLimit: database.poolSize, connectTimeout: 3000 },
    };
  }
  // SQLite's in-memory database is a name, not a path: resolved, it would be a file in the cwd.
  const inMemory = database.sqlitePath === SQLITE_IN_MEMORY;
  const file = inMemory ? SQLITE_IN_MEMORY : resolve(database.sqlitePath);
  if (!inMemory) {
    mkdirSync(dirname(file), { recursive: true });
    ownerOnly(file);
  }
  return {
    type: 'better-sqlite3',
    database: file,
    enableWAL: true,
    subscribers: [TimestampsSubscriber],
    migrations,
    migrationsTableName: 'migrations',
  };
}

/**
 * The embedded database holds API key hashes, signing secrets and kept responses: readable by its
 * owner only (0600), created so before SQLite opens it (its `-wal` and `-shm` files take the same
 * mode), and narrowed if an older start left it wider.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}
