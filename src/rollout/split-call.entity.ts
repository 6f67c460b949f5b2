import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

/**
 * One call a variant of a guarded split served (the room whose lookup chose it) and whether it
 * failed: its lookup's context failed, or a tool call or end-call delivery of the room did.
 * Written in the activity log's own batches (`GuardrailWatch`).
 */
@Entity('split_calls')
@Index('idx_split_calls_inbound', ['inbound_id', 'started_at'])
export class SplitCallEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  user_id: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  room_name: string;

  @Column({ type: 'varchar', length: 36 })
  inbound_id: string;

  @Column({ type: 'int' })
  variant: number;

  @Column({ type: 'int', nullable: true })
  assistant_version: number | null;

  @Column({ type: 'boolean' })
  failed: boolean;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  started_at: Date;
}
