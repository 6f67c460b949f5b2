import { Column, Entity, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { TimestampedEntity } from '../database/owned-entity';

@Entity('users')
export class UserEntity extends TimestampedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: 'varchar', length: 100 })
  user_name: string;

  /** Lower-cased; one user per email. */
  @Column({ type: 'varchar', length: 254, unique: true })
  user_email: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  org_name: string | null;

  /** Standard Webhooks signing secret (`whsec_...`); needed in clear to sign, never returned by reads other than its own route. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  webhook_secret: string | null;

  /** The secret before the last rotation, still used to sign until `webhook_secret_previous_expires_at`. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  webhook_secret_previous: string | null;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6, nullable: true })
  webhook_secret_previous_expires_at: Date | null;
}
