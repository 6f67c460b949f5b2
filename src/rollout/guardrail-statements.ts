import type { DataSource } from 'typeorm';
import type { LogRow } from '../activity-log/group-commit.types';
import type { Statement } from '../database/one-trip';
import { isMysql } from '../database/transaction';

/** A guarded split's call as its lookup's entry tells it. */
export interface SplitCall {
  user_id: string;
  room_name: string;
  inbound_id: string;
  variant: number;
  assistant_version: number | null;
  failed: boolean;
  started_at: Date;
}

/** The call a lookup entry of a guarded split records, or null for any other entry. */
export function splitCallOf(row: LogRow): SplitCall | null {
  if (row.log_type !== 'inbound_context_lookup') return null;
  const request = row.request_data ?? {};
  const { variant, inbound_id: inboundId, assistant_version: version } = request;
  if (request.guardrail !== true || typeof variant !== 'number' || typeof inboundId !== 'string')
    return null;
  return {
    user_id: row.user_id,
    room_name: row.room_name,
    inbound_id: inboundId,
    variant,
    assistant_version: typeof version === 'number' ? version : null,
    // The lookup's context failed: an error, or the fallback rendered in its place.
    failed: row.status === 'error' || row.response_data?.fallback_used === true,
    started_at: row.timestamp,
  };
}

/**
 * A tool call or end-call delivery that ended in error: it fails its room's call. An end-call
 * attempt the service retries (`will_retry`) has not ended the delivery: only its last attempt
 * decides, so a delivery answered on a later attempt fails nothing. A cancelled tool call is no
 * failure either.
 */
export function failsItsRoom(row: LogRow): boolean {
  if (row.status !== 'error' || row.error_class === ('cancelled' as LogRow['error_class']))
    return false;
  if (row.log_type === 'tool_call') return true;
  return row.log_type === 'end_call_webhook' && row.response_data?.will_retry !== true;
}

/**
 * The statements that keep `split_calls` in the batch's own transaction: each guarded lookup's
 * call (a room looked up again keeps its variant and stays failed once failed), then each room a
 * failed tool call or end-call delivery fails.
 */
export function splitCallStatements(dataSource: DataSource, rows: readonly LogRow[]): Statement[] {
  const calls = rows.map(splitCallOf).filter((call): call is SplitCall => call !== null);
  const failing = rows.filter(failsItsRoom);
  const statements: Statement[] = [];
  if (calls.length) {
    const columns =
      'user_id, room_name, inbound_id, variant, assistant_version, failed, started_at';
    const values = calls.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ');
    const insert = `INSERT INTO split_calls (${columns}) VALUES ${values}`;
    statements.push({
      sql: isMysql(dataSource)
        ? `${insert} ON DUPLICATE KEY UPDATE failed = GREATEST(failed, VALUES(failed))`
        : `${insert} ON CONFLICT (user_id, room_name) DO UPDATE SET failed = MAX(failed, excluded.failed)`,
      params: calls.flatMap((c) => [
        c.user_id,
        c.room_name,
        c.inbound_id,
        c.variant,
        c.assistant_version,
        c.failed ? 1 : 0,
        sqlInstant(c.started_at),
      ]),
    });
  }
  for (const row of failing)
    statements.push({
      sql: 'UPDATE split_calls SET failed = 1 WHERE user_id = ? AND room_name = ?',
      params: [row.user_id, row.room_name],
    });
  return statements;
}

/** An instant as `split_calls` keeps it, UTC, the same text on both databases (compared as such). */
export function sqlInstant(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
