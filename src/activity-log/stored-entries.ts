import type { DataSource } from 'typeorm';
import type { LogRow } from './group-commit-writer';

/**
 * The writer's reads after a unique violation: which of its entries are stored already, so that
 * writing one again resolves to the stored entry instead of failing.
 */
export class StoredEntries {
  private readonly byAttemptKey: string;
  private readonly byId: string;

  constructor(
    private readonly dataSource: DataSource,
    table: string,
  ) {
    const e = (name: string) => dataSource.driver.escape(name);
    this.byAttemptKey = `SELECT ${e('id')} AS id, ${e('attempt_key')} AS attempt_key FROM ${e(table)} WHERE ${e('attempt_key')} IN `;
    this.byId = `SELECT ${e('user_id')} AS user_id, ${e('room_name')} AS room_name, ${e('log_type')} AS log_type, ${e('timestamp')} AS timestamp FROM ${e(table)} WHERE ${e('id')} = ?`;
  }

  /** The ids of the entries stored under `keys`, by key. */
  async attempts(keys: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(keys)];
    const rows = await this.dataSource.query<{ id: string | number; attempt_key: string }[]>(
      `${this.byAttemptKey}(${unique.map(() => '?').join(', ')})`,
      unique,
    );
    return new Map(rows.map((row) => [row.attempt_key, String(row.id)]));
  }

  /** Whether the entry stored under `id` is `row` (the same owner, call, type and time). */
  async isStoredAs(id: string, row: LogRow): Promise<boolean> {
    const [stored] = await this.dataSource.query<
      Pick<LogRow, 'user_id' | 'room_name' | 'log_type' | 'timestamp'>[]
    >(this.byId, [id]);
    return (
      !!stored &&
      stored.user_id === row.user_id &&
      stored.room_name === row.room_name &&
      stored.log_type === row.log_type &&
      new Date(stored.timestamp).getTime() === row.timestamp.getTime()
    );
  }
}
