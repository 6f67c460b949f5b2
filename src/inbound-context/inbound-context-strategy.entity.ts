import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type { StoredStrategyConfig } from './inbound-context.types';

@Entity('inbound_context_strategies')
@Index('idx_strategies_user_created', ['user_id', 'created_at'])
export class InboundContextStrategyEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  strategy_id: string;

  @Column({ type: 'varchar', length: 100 })
  strategy_name: string;

  @Column({ type: 'varchar', length: 16 })
  strategy_type: 'webhook';

  /** `{url, headers, timeout_seconds, fallback_context?}`; header values in clear here, masked on every read. */
  @Column({ type: COLUMN_TYPES.json })
  strategy_config: StoredStrategyConfig;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;
}
