import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

export type IdempotencyState = 'running' | 'done';

/**
 * One `Idempotency-Key` of one caller: the request it was first used with (as a fingerprint) and,
 * once that request has answered, the status and body to answer its retries with. The primary key
 * makes the first use atomic, so two concurrent requests with one key cannot both run.
 */
@Entity('idempotency_keys')
@Index('idx_idempotency_keys_expires', ['expires_at'])
export class IdempotencyKeyEntity {
  /** The caller's user id, or `operator` for the operator's routes. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  owner_id: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  idempotency_key: string;

  /** SHA-256 (hex) of the method, path and body of the first request. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 8 })
  state: IdempotencyState;

  @Column({ type: 'int', nullable: true })
  response_status: number | null;

  /** The response body as sent (the envelope), JSON text. */
  @Column({ type: COLUMN_TYPES.longText, nullable: true })
  response_body: string | null;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  expires_at: Date;
}
