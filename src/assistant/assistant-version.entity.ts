import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import type { AssistantSnapshot, PublishedTool } from './assistant-snapshot';

/**
 * An immutable published version of an assistant: its configuration and its attached tools'
 * definitions as they were when published. Numbered from 1 per assistant; the unique index makes
 * two concurrent publishes unable to take the same number.
 */
@Entity('assistant_versions')
@Index('uq_assistant_versions_assistant_version', ['assistant_id', 'version'], { unique: true })
export class AssistantVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  version_id: string;

  @Column({ type: 'varchar', length: 36 })
  assistant_id: string;

  @Column({ type: 'varchar', length: 36 })
  user_id: string;

  @Column({ type: 'int' })
  version: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  @Column({ type: COLUMN_TYPES.json })
  assistant: AssistantSnapshot;

  @Column({ type: COLUMN_TYPES.json })
  tools: PublishedTool[];

  @Column({ type: COLUMN_TYPES.datetime, precision: 6 })
  published_at: Date;
}
