import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  api_key_id: string;

  @Index('idx_api_keys_user')
  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  /** SHA-256 of the key, hex. The key itself is shown once at creation and never stored. */
  @Column({ type: 'varchar', length: 64, unique: true })
  key_hash: string;

  /** First characters of the key (`vac_AbCd`), so an operator can tell keys apart. */
  @Column({ type: 'varchar', length: 16 })
  key_prefix: string;

  /** Comma-separated scopes in a fixed order (`config`, `config,runtime`, `runtime`). */
  @Column({ type: 'varchar', length: 32, default: 'config' })
  scopes: string;

  @Column({ type: COLUMN_TYPES.datetime, precision: 6, nullable: true })
  revoked_at: Date | null;

  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;
}
