import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

@Entity('inbound_context_strategies')
@Index('idx_strategies_user_created', ['user_id', 'created_at'])
export class InboundContextStrategyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  strategy_id: string;

  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: 'varchar', length: 100 })
  strategy_name: string;

  @Column({ type: 'varchar', length: 16 })
  strategy_type: 'webhook';

  /** `{url, headers, timeout_seconds}`; header values in clear here, masked on every read. */
  @Column({ type: COLUMN_TYPES.json })
  strategy_config: Record<string, unknown>;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;

  @UpdateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  updated_at: Date;
}
