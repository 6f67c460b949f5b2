import type { DataSource, EntityManager } from 'typeorm';
import { ERROR_CLASSES, type ErrorClass } from '../contracts/error-class';
import type { Statement } from '../database/one-trip';
import { isMysql } from '../database/transaction';
import { ActivityLogEntity, type LogType } from './activity-log.entity';
import type { LogRow } from './group-commit-writer';

/** Upper bounds (ms, inclusive) of the latency histogram's buckets; one more bucket holds the rest. */
export const LATENCY_BOUNDS_MS = [
  25, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000,
];
const BUCKETS = LATENCY_BOUNDS_MS.length + 1;
const CLASS_COLUMNS = ERROR_CLASSES.map((c) => `e_${c}`);
const LATENCY_COLUMNS = Array.from({ length: BUCKETS }, (_, i) => `l_${i}`);
const KEY_COLUMNS = ['user_id', 'hour', 'origin', 'log_type'];
const SUM_COLUMNS = ['attempts', 'errors', ...CLASS_COLUMNS, ...LATENCY_COLUMNS];
const ALL_COLUMNS = [
  ...KEY_COLUMNS,
  ...SUM_COLUMNS,
  'latency_max_ms',
  'last_success_at',
  'last_error_at',
];

/** UTC hour of an instant, `YYYY-MM-DDTHH`: the counters' bucket. */
export const hourOf = (date: Date): string => date.toISOString().slice(0, 13);

/** Scheme, host and port of a logged URL; null when the entry has none (static tool, no URL). */
export function originOf(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin.slice(0, 300);
  } catch {
    return null;
  }
}

/** Index of the histogram bucket `latencyMs` falls in. */
export function latencyBucket(latencyMs: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

interface Counter {
  key: string[];
  sums: number[];
  max: number;
  lastSuccess: Date | null;
  lastError: Date | null;
}

const later = (a: Date | null, b: Date): Date => (a && a > b ? a : b);

/** The batch's entries that have a URL, summed per counter key, keys sorted (one lock order). */
function group(rows: LogRow[]): Counter[] {
  const counters = new Map<string, Counter>();
  for (const row of rows) {
    const origin = originOf(row.request_data?.url);
    // A call cancelled before its send never reached the endpoint.
    if (!origin || row.error_class === 'cancelled') continue;
    const key = [row.user_id, hourOf(row.timestamp), origin, row.log_type];
    const id = key.join('\u0000');
    let counter = counters.get(id);
    if (!counter) {
      counter = {
        key,
        sums: new Array<number>(SUM_COLUMNS.length).fill(0),
        max: 0,
        lastSuccess: null,
        lastError: null,
      };
      counters.set(id, counter);
    }
    counter.sums[0] += 1;
    counter.max = Math.max(counter.max, row.latency_ms);
    counter.sums[2 + ERROR_CLASSES.length + latencyBucket(row.latency_ms)] += 1;
    if (row.status === 'success') counter.lastSuccess = later(counter.lastSuccess, row.timestamp);
    else {
      counter.sums[1] += 1;
      const cls = ERROR_CLASSES.indexOf(row.error_class ?? 'internal');
      counter.sums[2 + (cls === -1 ? ERROR_CLASSES.indexOf('internal') : cls)] += 1;
      counter.lastError = later(counter.lastError, row.timestamp);
    }
  }
  return [...counters.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/**
 * The upsert that adds a batch of entries to their endpoint counters, to run inside the batch's
 * transaction; null when none of them has a URL.
 */
export function targetCountsStatement(dataSource: DataSource, rows: LogRow[]): Statement | null {
  const counters = group(rows);
  if (!counters.length) return null;
  const mysql = isMysql(dataSource);
  const stamp = timestampColumn(dataSource);
  const toDb = (date: Date | null): unknown =>
    date && (dataSource.driver.preparePersistentValue(date, stamp) as unknown);
  const placeholders = `(${ALL_COLUMNS.map(() => '?').join(', ')})`;
  const params = counters.flatMap((c): unknown[] => [
    ...c.key,
    ...c.sums,
    c.max,
    toDb(c.lastSuccess),
    toDb(c.lastError),
  ]);
  const incoming = (column: string) => (mysql ? `VALUES(${column})` : `excluded.${column}`);
  const greatest = mysql ? 'GREATEST' : 'MAX';
  const newest = (column: string) =>
    `${column} = ${greatest}(COALESCE(${column}, ${incoming(column)}), COALESCE(${incoming(column)}, ${column}))`;
  const updates = [
    ...SUM_COLUMNS.map((column) => `${column} = ${column} + ${incoming(column)}`),
    `latency_max_ms = ${greatest}(latency_max_ms, ${incoming('latency_max_ms')})`,
    newest('last_success_at'),
    newest('last_error_at'),
  ].join(', ');
  const insert = `INSERT INTO activity_log_target_counts (${ALL_COLUMNS.join(', ')}) VALUES ${counters.map(() => placeholders).join(', ')}`;
  return {
    sql: mysql
      ? `${insert} ON DUPLICATE KEY UPDATE ${updates}`
      : `${insert} ON CONFLICT (${KEY_COLUMNS.join(', ')}) DO UPDATE SET ${updates}`,
    params,
  };
}

/** Adds a batch of entries to their endpoint counters, inside the caller's transaction. */
export async function addTargetCounts(em: EntityManager, rows: LogRow[]): Promise<void> {
  const statement = targetCountsStatement(em.connection, rows);
  if (statement) await em.query(statement.sql, statement.params);
}

/** Drops the counters of hours before `cutoff` (the retention purge). */
export async function dropTargetCountsBefore(dataSource: DataSource, cutoff: Date): Promise<void> {
  await dataSource.query('DELETE FROM activity_log_target_counts WHERE hour < ?', [hourOf(cutoff)]);
}

/** One origin and log type over a range of hours, summed. */
export interface TargetTotals {
  origin: string;
  log_type: LogType;
  attempts: number;
  errors: number;
  by_error_class: Partial<Record<ErrorClass, number>>;
  histogram: number[];
  latency_max_ms: number;
  last_success_at: Date | null;
  last_error_at: Date | null;
}

/** A user's counters from the hour of `from` through the hour of `to`, per origin and log type. */
export async function sumTargetCounts(
  dataSource: DataSource,
  userId: string,
  from: Date,
  to: Date,
  logType?: LogType,
): Promise<TargetTotals[]> {
  const params: unknown[] = [userId, hourOf(from), hourOf(to)];
  if (logType) params.push(logType);
  const sums = SUM_COLUMNS.map((column) => `SUM(${column}) AS ${column}`).join(', ');
  const rows = await dataSource.query<Record<string, unknown>[]>(
    `SELECT origin, log_type, ${sums}, MAX(latency_max_ms) AS latency_max_ms,
       MAX(last_success_at) AS last_success_at, MAX(last_error_at) AS last_error_at
     FROM activity_log_target_counts
     WHERE user_id = ? AND hour >= ? AND hour <= ?${logType ? ' AND log_type = ?' : ''}
     GROUP BY origin, log_type`,
    params,
  );
  const stamp = timestampColumn(dataSource);
  const fromDb = (value: unknown) =>
    value === null || value === undefined
      ? null
      : (dataSource.driver.prepareHydratedValue(value, stamp) as Date);
  return rows.map((row) => {
    const by_error_class: Partial<Record<ErrorClass, number>> = {};
    for (const cls of ERROR_CLASSES) {
      const n = Number(row[`e_${cls}`] ?? 0);
      if (n > 0) by_error_class[cls] = n;
    }
    return {
      origin: String(row.origin),
      log_type: row.log_type as LogType,
      attempts: Number(row.attempts ?? 0),
      errors: Number(row.errors ?? 0),
      by_error_class,
      histogram: LATENCY_COLUMNS.map((column) => Number(row[column] ?? 0)),
      latency_max_ms: Number(row.latency_max_ms ?? 0),
      last_success_at: fromDb(row.last_success_at),
      last_error_at: fromDb(row.last_error_at),
    };
  });
}

/**
 * The `q` quantile (0-1) of a histogram over `LATENCY_BOUNDS_MS`, interpolated linearly inside its
 * bucket as Prometheus's `histogram_quantile` does; the overflow bucket ends at the largest latency
 * seen. Null without observations.
 */
export function histogramQuantile(histogram: number[], q: number, maxMs: number): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    const n = histogram[i];
    if (n === 0 || seen + n < rank) {
      seen += n;
      continue;
    }
    const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
    const upper = i < LATENCY_BOUNDS_MS.length ? Math.min(LATENCY_BOUNDS_MS[i], maxMs) : maxMs;
    return Math.round(lower + (Math.max(upper, lower) - lower) * ((rank - seen) / n));
  }
  return maxMs;
}

function timestampColumn(dataSource: DataSource) {
  const column = dataSource.getMetadata(ActivityLogEntity).findColumnWithPropertyName('timestamp');
  if (!column) throw new Error('activity_logs.timestamp column metadata missing');
  return column;
}
