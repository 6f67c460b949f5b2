import type { DataSource, EntityManager } from 'typeorm';
import type { Statement } from '../database/one-trip';
import { isMysql, runTransaction } from '../database/transaction';
import type { ErrorClass } from '../contracts/error-class';
import type { LogStatus, LogType } from './activity-log.entity';

/** The columns of an entry that its counter row is keyed by. */
export interface CountedEntry {
  user_id: string;
  log_type: LogType;
  status: LogStatus;
  assistant_id: string | null;
  /** Null (or absent: the entries of a success) counts under ''. */
  error_class?: ErrorClass | null;
  timestamp: Date;
}

export interface CountFilters {
  log_type?: LogType;
  status?: LogStatus;
  assistant_id?: string;
  error_class?: ErrorClass;
}

const KEY_COLUMNS = [
  'user_id',
  'day',
  'log_type',
  'status',
  'assistant_id',
  'error_class',
] as const;
/** The filters a counter row answers, each one of its key columns. */
const FILTER_COLUMNS = ['log_type', 'status', 'assistant_id', 'error_class'] as const;

/** UTC day of an instant, `YYYY-MM-DD`. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** Entries per counter key, keys sorted so concurrent transactions lock counter rows in one order. */
function group(entries: CountedEntry[]): [string[], number][] {
  const counts = new Map<string, [string[], number]>();
  for (const e of entries) {
    const key = [
      e.user_id,
      dayOf(e.timestamp),
      e.log_type,
      e.status,
      e.assistant_id ?? '',
      e.error_class ?? '',
    ];
    const id = key.join('\u0000');
    const found = counts.get(id);
    if (found) found[1] += 1;
    else counts.set(id, [key, 1]);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/**
 * The upsert that adds `entries` to their counters, to run inside the transaction that writes
 * them; null when there are none.
 */
export function countsStatement(dataSource: DataSource, entries: CountedEntry[]): Statement | null {
  const groups = group(entries);
  if (!groups.length) return null;
  const values = groups.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ');
  const params = groups.flatMap(([key, n]) => [...key, n]);
  const insert = `INSERT INTO activity_log_counts (${KEY_COLUMNS.join(', ')}, entries) VALUES ${values}`;
  return {
    sql: isMysql(dataSource)
      ? `${insert} ON DUPLICATE KEY UPDATE entries = entries + VALUES(entries)`
      : `${insert} ON CONFLICT (${KEY_COLUMNS.join(', ')}) DO UPDATE SET entries = entries + excluded.entries`,
    params,
  };
}

/** Takes deleted `entries` off their counters, inside the caller's transaction. */
export async function subtractCounts(em: EntityManager, entries: CountedEntry[]): Promise<void> {
  for (const [key, n] of group(entries)) {
    await em.query(
      `UPDATE activity_log_counts SET entries = entries - ? WHERE ${KEY_COLUMNS.map((c) => `${c} = ?`).join(' AND ')}`,
      [n, ...key],
    );
  }
}

/** Drops the counter rows that reached zero on days up to `lastDay`. */
export async function dropEmptyCounts(dataSource: DataSource, lastDay: string): Promise<void> {
  await dataSource.query('DELETE FROM activity_log_counts WHERE day <= ? AND entries <= 0', [
    lastDay,
  ]);
}

/** A user's entries on the days `fromDay` (inclusive) to `toDay` (exclusive); null: unbounded. */
export async function sumCounts(
  dataSource: Pick<DataSource | EntityManager, 'query'>,
  userId: string,
  filters: CountFilters,
  fromDay: string | null,
  toDay: string | null,
): Promise<number> {
  let where = 'user_id = ?';
  const params: unknown[] = [userId];
  if (fromDay) {
    where += ' AND day >= ?';
    params.push(fromDay);
  }
  if (toDay) {
    where += ' AND day < ?';
    params.push(toDay);
  }
  for (const key of FILTER_COLUMNS) {
    if (filters[key] === undefined) continue;
    where += ` AND ${key} = ?`;
    params.push(filters[key]);
  }
  const [row] = await dataSource.query<{ total: string | number | null }[]>(
    `SELECT SUM(entries) AS total FROM activity_log_counts WHERE ${where}`,
    params,
  );
  return Number(row?.total ?? 0);
}

/**
 * Recomputes every counter from the entries themselves (the migration that adds the table does the
 * same). For a database filled by other means than `ActivityLogService`, e.g. a benchmark's seed.
 */
export async function rebuildCounts(dataSource: DataSource): Promise<void> {
  const day = isMysql(dataSource) ? 'DATE(timestamp)' : 'substr(timestamp, 1, 10)';
  await runTransaction(dataSource, async (em) => {
    await em.query('DELETE FROM activity_log_counts');
    await em.query(
      `INSERT INTO activity_log_counts (${KEY_COLUMNS.join(', ')}, entries)
       SELECT user_id, ${day}, log_type, status, COALESCE(assistant_id, ''),
         COALESCE(error_class, ''), COUNT(*)
       FROM activity_logs
       GROUP BY user_id, ${day}, log_type, status, COALESCE(assistant_id, ''), COALESCE(error_class, '')`,
    );
  });
}
