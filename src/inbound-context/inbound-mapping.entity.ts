import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type { InboundPolicy } from '../inbound-policy/policy.types';
import type { Guardrail, GuardrailState, MappingEnvironment } from './dto/rollout-fields.dto';
import type { AssistantVariant } from './variant-pick';

@Entity('inbound_mappings')
@Index('idx_inbound_user_created', ['user_id', 'created_at'])
@Index('idx_inbound_number', ['phone_number_normalized'])
export class InboundMappingEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  inbound_id: string;

  /** Null once the assistant is deleted (the mapping stays, detached). */
  @Column({ type: 'varchar', length: 36, nullable: true })
  assistant_id: string | null;

  /** A published version of the assistant the lookup renders; null for the working copy. */
  @Column({ type: 'int', nullable: true })
  assistant_version: number | null;

  /** A traffic split over versions of the assistant (2-5 arms, weights totalling 100); null: none. */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  assistant_variants: AssistantVariant[] | null;

  /** Opening hours, closing days, caller rules and a cap on concurrent calls; null: none. */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  policy: InboundPolicy | null;

  /** `production` takes only checked versions; null: no environment. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  environment: MappingEnvironment | null;

  /** With a split: when a variant fails too often, the split ends on the control. */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  guardrail: Guardrail | null;

  /** How the guardrail last ended a split; null until it does. */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  guardrail_state: GuardrailState | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  inbound_context_strategy_id: string | null;

  @Column({ type: 'varchar', length: 16 })
  service: 'exotel';

  /** As sent: `{phone_number, ...}`. */
  @Column({ type: COLUMN_TYPES.json })
  inbound_config: Record<string, unknown>;

  /** Digits only; what routing matches on. */
  @Column({ type: 'varchar', length: 32 })
  phone_number_normalized: string;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  /**
   * The normalized number while the mapping is active, NULL otherwise. Its unique index is what
   * makes "one active mapping per number" hold under concurrent assigns, on MySQL and SQLite alike.
   */
  @Column({ type: 'varchar', length: 32, nullable: true, unique: true })
  active_phone_number: string | null;
}
