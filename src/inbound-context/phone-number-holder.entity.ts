import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

/**
 * Who holds a phone number: the user who first assigned it, until that user has deleted every
 * mapping of it (pausing one keeps the number). The primary key makes the first claim atomic, so
 * two users assigning a fresh number at once cannot both get it.
 */
@Entity('phone_number_holders')
@Index('idx_phone_holders_user', ['user_id'])
export class PhoneNumberHolderEntity {
  /** Digits only, as inbound mappings route on them. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  phone_number_normalized: string;

  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;
}
