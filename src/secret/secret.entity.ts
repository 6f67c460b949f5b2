import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';

/**
 * A user's named secret. The name is unique per user; the value never leaves the service but
 * in an outbound request that references it.
 */
@Entity('secrets')
@Index('idx_secrets_user_name', ['user_id', 'secret_name'], { unique: true })
export class SecretEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  secret_id: string;

  @Column({ type: 'varchar', length: 64 })
  secret_name: string;

  /** The value, AES-256-GCM encrypted (`SecretCipher`); never in clear at rest. */
  @Column({ type: 'text' })
  value_encrypted: string;

  /**
   * Where the value may be sent: origins (`https://api.example.com`, `https://*.example.com`) or
   * `["provider"]`; null until the first field that references it binds it to its own.
   */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  allowed_origins: string[] | null;

  /** 1 at creation, + 1 at each rotation. */
  @Column({ type: 'int' })
  version: number;

  /** When an outbound request or the runtime view last resolved it (to the minute); null until then. */
  @Column({ type: COLUMN_TYPES.datetime, precision: 6, nullable: true })
  last_used_at: Date | null;
}
