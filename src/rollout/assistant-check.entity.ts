import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import type { CheckedCase } from './rollout.types';

/**
 * One run of an assistant's test cases against one version (null: the working copy). Kept as run:
 * what a production pin is checked against.
 */
@Entity('assistant_checks')
@Index('idx_checks_assistant', ['user_id', 'assistant_id', 'created_at'])
@Index('idx_checks_version', ['assistant_id', 'version', 'created_at'])
export class AssistantCheckEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  check_id: string;

  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: 'varchar', length: 36 })
  assistant_id: string;

  @Column({ type: 'int', nullable: true })
  version: number | null;

  @Column({ type: 'boolean' })
  passed: boolean;

  @Column({ type: COLUMN_TYPES.json })
  cases: CheckedCase[];

  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;
}
