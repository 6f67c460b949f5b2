import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import type { AuditAction, AuditChange, AuditResourceType } from './audit.types';

/**
 * One change to a user's configuration, written in the change's own transaction. Indexes lead with
 * the owner and end with `(timestamp, id)`, so each `GET /audit` filter is a range read in the
 * order it returns; `idx_audit_ts` serves the retention purge.
 */
@Entity('audit_entries')
@Index('idx_audit_user_ts', ['user_id', 'timestamp', 'id'])
@Index('idx_audit_user_resource_ts', ['user_id', 'resource_type', 'resource_id', 'timestamp', 'id'])
@Index('idx_audit_ts', ['timestamp'])
@Index('idx_audit_audit_id', ['audit_id'], { unique: true })
export class AuditEntryEntity {
  /** Auto-increment: the tie-breaker that keeps "newest first" stable within one instant. */
  @PrimaryGeneratedColumn({ type: COLUMN_TYPES.increment })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  audit_id: string;

  /** The owner of the changed record: whose `GET /audit` lists the entry. */
  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  timestamp: Date;

  @Column({ type: 'varchar', length: 16 })
  action: AuditAction;

  @Column({ type: 'varchar', length: 32 })
  resource_type: AuditResourceType;

  @Column({ type: 'varchar', length: 100 })
  resource_id: string;

  /** The user whose API key made the change; null for the operator (`ADMIN_API_KEY`). */
  @Column({ type: 'varchar', length: 36, nullable: true })
  actor_user_id: string | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  actor_api_key_id: string | null;

  /** The part of the service that made the change itself (e.g. `guardrail`); null for a request's. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  actor_system: string | null;

  /** The request's `X-Request-Id`; null when the change was not made by an HTTP request. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  request_id: string | null;

  @Column({ type: COLUMN_TYPES.json })
  changes: AuditChange[];
}
