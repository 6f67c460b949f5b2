import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { driverFromEnv } from './column-types';
import { ENTITIES } from './entities';

export const DEFAULT_SQLITE_PATH = './data/voice-assistant.sqlite';

/**
 * One place that turns the environment into TypeORM options, shared by the application and the
 * TypeORM CLI (`ormconfig.ts`). Each driver has its own generated migration set, produced from
 * the same entities by `npm run migration:generate`.
 */
export function dataSourceOptions(env: NodeJS.ProcessEnv = process.env): DataSourceOptions {
  const driver = driverFromEnv(env);
  const migrations = [
    join(__dirname, 'migrations', driver === 'mysql' ? 'mysql' : 'sqlite', '*.{ts,js}'),
  ];
  if (driver === 'mysql') {
    return {
      type: 'mysql',
      connectorPackage: 'mysql2',
      url: env.DATABASE_URL,
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      entities: ENTITIES,
      migrations,
      migrationsTableName: 'migrations',
      // Fail a connection attempt in 3 s rather than mysql2's 10 s when the server does not answer.
      extra: { connectionLimit: Number(env.DB_POOL_SIZE ?? 10), connectTimeout: 3000 },
    };
  }
  const database = resolve(env.SQLITE_PATH ?? DEFAULT_SQLITE_PATH);
  if (database !== ':memory:') mkdirSync(dirname(database), { recursive: true });
  return {
    type: 'better-sqlite3',
    database,
    enableWAL: true,
    entities: ENTITIES,
    migrations,
    migrationsTableName: 'migrations',
  };
}
