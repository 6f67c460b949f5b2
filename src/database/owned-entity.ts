import { Column, CreateDateColumn, UpdateDateColumn } from 'typeorm';
import { COLUMN_TYPES } from './column-types';

/**
 * `created_at` / `updated_at` of a record the API lists newest first. Inserts get both from
 * `TimestampsSubscriber`, in milliseconds: SQLite's column default has whole seconds only, too
 * coarse to order by.
 */
export abstract class TimestampedEntity {
  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;

  @UpdateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  updated_at: Date;
}

/** A user's record: every read and write is scoped by `user_id`. */
export abstract class OwnedEntity extends TimestampedEntity {
  @Column({ type: 'varchar', length: 36 })
  user_id: string;
}

/**
 * The `updated_at` of a write to a row last written at `previous`: now, or 1 ms after `previous`
 * when the clock has not moved past it. Called under the row's lock, it makes every write change
 * `updated_at`, so the record's ETag (a hash of what details shows) changes with every write, even
 * one that sets a field to the value it had.
 */
export function nextUpdatedAt(previous: Date | string | null | undefined, now = new Date()): Date {
  const last = previous == null ? Number.NaN : new Date(previous).getTime();
  return Number.isFinite(last) && now.getTime() <= last ? new Date(last + 1) : now;
}
