import { CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';

/** Attachment of a tool to an assistant. Rows go when either side is deleted (foreign keys cascade). */
@Entity('assistant_tools')
@Index('idx_assistant_tools_tool', ['tool_id'])
export class AssistantToolEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  assistant_id: string;

  @PrimaryColumn({ type: 'varchar', length: 36 })
  tool_id: string;

  @CreateDateColumn({ type: COLUMN_TYPES.datetime, precision: 6 })
  created_at: Date;
}
