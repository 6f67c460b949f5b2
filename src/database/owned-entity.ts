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
