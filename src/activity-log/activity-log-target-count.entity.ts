import { Column, Entity, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import type { LogType } from './activity-log.entity';

/**
 * Endpoint health counters: per user, UTC hour, URL origin and log type, how many entries there
 * were, how many failed and of which class, a fixed latency histogram and the last success and
 * error. Written in the same transaction as the entries they count (the group-commit writer's
 * batch hook), so `GET /logs/health` sums a few rows per origin instead of scanning entries.
 * Hourly rather than daily, so the default "last 24 hours" is answered to the hour.
 */
@Entity('activity_log_target_counts')
export class ActivityLogTargetCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  user_id: string;

  /** UTC hour of the entries' timestamp, `YYYY-MM-DDTHH`. */
  @PrimaryColumn({ type: 'varchar', length: 13 })
  hour: string;

  /** Scheme, host and port of the request's URL (`https://crm.example.com`). */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  origin: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  log_type: LogType;

  @Column({ type: 'bigint' })
  attempts: string;

  @Column({ type: 'bigint' })
  errors: string;

  /** Errors per class, one column each (`e_<class>`), so a batch adds to them in one statement. */
  @Column({ type: 'bigint', default: 0 }) e_timeout: string;
  @Column({ type: 'bigint', default: 0 }) e_network: string;
  @Column({ type: 'bigint', default: 0 }) e_http_4xx: string;
  @Column({ type: 'bigint', default: 0 }) e_auth: string;
  @Column({ type: 'bigint', default: 0 }) e_http_5xx: string;
  @Column({ type: 'bigint', default: 0 }) e_invalid_response: string;
  @Column({ type: 'bigint', default: 0 }) e_blocked: string;
  @Column({ type: 'bigint', default: 0 }) e_config: string;
  @Column({ type: 'bigint', default: 0 }) e_internal: string;
  @Column({ type: 'bigint', default: 0 }) e_cancelled: string;

  /** Latency histogram: entries per bucket of `LATENCY_BOUNDS_MS` (`l_0`: up to 25 ms), `l_13` above them all. */
  @Column({ type: 'bigint', default: 0 }) l_0: string;
  @Column({ type: 'bigint', default: 0 }) l_1: string;
  @Column({ type: 'bigint', default: 0 }) l_2: string;
  @Column({ type: 'bigint', default: 0 }) l_3: string;
  @Column({ type: 'bigint', default: 0 }) l_4: string;
  @Column({ type: 'bigint', default: 0 }) l_5: string;
  @Column({ type: 'bigint', default: 0 }) l_6: string;
  @Column({ type: 'bigint', default: 0 }) l_7: string;
  @Column({ type: 'bigint', default: 0 }) l_8: string;
  @Column({ type: 'bigint', default: 0 }) l_9: string;
  @Column({ type: 'bigint', default: 0 }) l_10: string;
  @Column({ type: 'bigint', default: 0 }) l_11: string;
  @Column({ type: 'bigint', default: 0 }) l_12: string;
  @Column({ type: 'bigint', default: 0 }) l_13: string;

  @Column({ type: 'int' })
  latency_max_ms: number;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6, nullable: true })
  last_success_at: Date | null;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6, nullable: true })
  last_error_at: Date | null;
}
