import { rmSync } from 'node:fs';
import 'reflect-metadata';
import { DataSource } from 'typeorm';

/**
 * Once per run: a fresh Bull prefix so jobs of an earlier run cannot leak in; with MySQL, create
 * the database if missing and apply the migrations; without it, start from empty SQLite files.
 */
export default async function globalSetup(): Promise<void> {
  process.env.QUEUE_PREFIX = `vac-test-${Date.now()}`;
  const url = process.env.DATABASE_URL;
  if (!url) {
    rmSync('./data/test', { recursive: true, force: true });
    return;
  }
  // As the service does at start: the database is created when missing.
  const { prepareDatabase } = await import('../../src/bootstrap/prepare-database');
  await prepareDatabase(url);

  const { appDataSourceOptions } = await import('../../src/app-data-source');
  const dataSource = new DataSource(appDataSourceOptions());
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
}
