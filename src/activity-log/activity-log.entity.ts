import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ErrorClass } from '../contracts/error-class';
import { COLUMN_TYPES } from '../database/column-types';

export const LOG_TYPES = [
  'tool_call',
  'end_call_webhook',
  'inbound_context_lookup',
  'event_delivery',
] as const;
export type LogType = (typeof LOG_TYPES)[number];
export const LOG_STATUSES = ['success', 'error'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/**
 * One outbound request made on a user's behalf. Every index leads with `user_id` and ends with
 * `(timestamp, id)` so each `GET /logs` filter is an index range read in the order it returns.
 */
@Entity('activity_logs')
@Index('idx_logs_user_ts', ['user_id', 'timestamp', 'id'])
@Index('idx_logs_user_type_ts', ['user_id', 'log_type', 'timestamp', 'id'])
@Index('idx_logs_user_assistant_ts', ['user_id', 'assistant_id', 'timestamp', 'id'])
@Index('idx_logs_user_room_ts', ['user_id', 'room_name', 'timestamp', 'id'])
@Index('idx_logs_user_status_ts', ['user_id', 'status', 'timestamp', 'id'])
@Index('idx_logs_user_error_class_ts', ['user_id', 'error_class', 'timestamp', 'id'])
@Index('idx_logs_user_trace_ts', ['user_id', 'trace_id', 'timestamp', 'id'])
@Index('idx_logs_ts', ['timestamp'])
@Index('uq_logs_attempt_key', ['attempt_key'], { unique: true })
export class ActivityLogEntity {
  /** Auto-increment: cheap appends, and the tie-breaker that keeps pages stable. */
  @PrimaryGeneratedColumn({ type: COLUMN_TYPES.increment })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: 'varchar', length: 32 })
  log_type: LogType;

  @Column({ type: 'varchar', length: 16 })
  status: LogStatus;

  @Column({ type: 'varchar', length: 36, nullable: true })
  assistant_id: string | null;

  @Column({ type: 'varchar', length: 255 })
  room_name: string;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  timestamp: Date;

  @Column({ type: 'varchar', length: 1000 })
  message: string;

  @Column({ type: COLUMN_TYPES.json })
  request_data: Record<string, unknown>;

  @Column({ type: COLUMN_TYPES.json })
  response_data: Record<string, unknown>;

  @Column({ type: 'int' })
  latency_ms: number;

  /** Why the request failed (`timeout`, `auth`, ...: see error-class.ts); null on success. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  error_class: ErrorClass | null;

  /** W3C trace id of the job that made the request (32 lowercase hex digits). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  trace_id: string | null;

  /**
   * The whole JSON body the request sent (end-call deliveries and webhook tool calls, up to
   * `MAX_STORED_REQUEST_BODY_BYTES`), so a replay sends exactly it. Read only by the replay, never
   * by `GET /logs`.
   */
  @Column({ type: COLUMN_TYPES.longText, nullable: true, select: false })
  request_body: string | null;

  /** The entry this one replayed (`POST /logs/replay/:log_id`); null for a job's own request. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  replay_of: string | null;

  /**
   * The job attempt the entry records (attempt-journal.ts), unique: an attempt whose outcome was
   * lost in a crash and the same attempt's own outcome can never both be written. Null for entries
   * not made by a journaled attempt (dry runs, replays, requests refused before sending).
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  attempt_key: string | null;
}
