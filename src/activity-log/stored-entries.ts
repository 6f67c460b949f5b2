import type { DataSource } from 'typeorm';

/**
 * The writer's reads after a unique violation: which of its entries are stored already, so that
 * writing one again resolves to the stored entry instead of failing.
 */
export class StoredEntries {
  private readonly byAttemptKey: string;

  constructor(
    private readonly dataSource: DataSource,
    table: string,
  ) {
    const e = (name: string) => dataSource.driver.escape(name);
    this.byAttemptKey = `SELECT ${e('id')} AS id, ${e('attempt_key')} AS attempt_key FROM ${e(table)} WHERE ${e('attempt_key')} IN `;
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
}
