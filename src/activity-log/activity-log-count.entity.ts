import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ErrorClass } from '../contracts/error-class';
import type { LogStatus, LogType } from './activity-log.entity';

/**
 * How many activity-log entries a user has per UTC day, log type, status, assistant and error
 * class. Kept in the same transaction as the entries it counts (the batched inserts and the
 * retention purge), so `GET /logs` sums these rows for the whole days of a range instead of
 * counting every entry, whichever of these columns it filters on.
 */
@Entity('activity_log_counts')
export class ActivityLogCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  user_id: string;

  /** UTC day of the entries' timestamp, `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  log_type: LogType;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  status: LogStatus;

  /** The entries' assistant, or '' for entries without one (a key column cannot be NULL). */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  assistant_id: string;

  /** The entries' error class, or '' for entries without one (successes). */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  error_class: ErrorClass | '';

  @Column({ type: 'bigint' })
  entries: string;
}
