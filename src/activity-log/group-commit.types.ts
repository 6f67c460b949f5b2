import type { Statement } from '../database/one-trip';
import type { ActivityLogEntity } from './activity-log.entity';

/** One entry as it is stored: every column but the generated id. */
export type LogRow = Omit<ActivityLogEntity, 'id'>;

/**
 * The statements that run in the batch's transaction after its rows are inserted (e.g. to maintain
 * counters), given the rows inserted.
 */
export type BatchStatements = (rows: LogRow[]) => Statement[];

export interface GroupCommitLimits {
  /** Rows per INSERT statement. */
  maxRows: number;
  /** Approximate bytes of row data per statement (MySQL's max_allowed_packet is 16-64 MB). */
  maxBytes: number;
  /** Batches committing at once; entries arriving meanwhile wait and form the next batch. */
  maxInFlight: number;
}

export const DEFAULT_GROUP_COMMIT_LIMITS: GroupCommitLimits = {
  maxRows: 200,
  maxBytes: 4 * 1024 * 1024,
  maxInFlight: 2,
};

/** A committed entry: its id, and whether this write inserted it (false: it was there already). */
export interface Written {
  id: string;
  inserted: boolean;
}

export interface Pending {
  row: LogRow;
  bytes: number;
  resolve: (written: Written | null) => void;
  /** Its id on MySQL: taken when its batch is built. */
  id?: string;
}

/** A row's size in a statement, from its bound values (the JSON columns already serialised). */
export function approximateBytes(values: unknown[]): number {
  let bytes = 256;
  for (const value of values)
    bytes += typeof value === 'string' || Buffer.isBuffer(value) ? value.length : 8;
  return bytes;
}
