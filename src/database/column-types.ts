import type { ColumnType } from 'typeorm';
import { databaseDriver } from '../config/app-config';

/**
 * Column types that differ between the two supported drivers. MySQL gets native JSON, MEDIUMTEXT
 * and microsecond DATETIME(6); the embedded SQLite file stores JSON as text. The driver is fixed
 * for the life of a process (DATABASE_URL set or not), so entities and migrations read it once.
 */
export interface ColumnTypes {
  json: ColumnType;
  longText: ColumnType;
  datetime: ColumnType;
  /** Auto-increment primary key: SQLite only allows AUTOINCREMENT on INTEGER. */
  increment: 'bigint' | 'integer';
}

export function columnTypesFor(driver: string): ColumnTypes {
  return driver === 'mysql'
    ? { json: 'json', longText: 'mediumtext', datetime: 'datetime', increment: 'bigint' }
    : { json: 'simple-json', longText: 'text', datetime: 'datetime', increment: 'integer' };
}

export const COLUMN_TYPES = columnTypesFor(databaseDriver());
