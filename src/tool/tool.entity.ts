import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type { SideEffect } from './tool.constants';
import type { ToolExecutionConfig, ToolExecutionType, ToolParameter } from './tool.types';

@Entity('tools')
@Index('idx_tools_user_created', ['user_id', 'created_at'])
export class ToolEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  tool_id: string;

  @Column({ type: 'varchar', length: 64 })
  tool_name: string;

  @Column({ type: 'varchar', length: 500 })
  tool_description: string;

  /** Parameter objects with defaults applied (`required: true` when not sent). */
  @Column({ type: COLUMN_TYPES.json })
  tool_parameters: ToolParameter[];

  @Column({ type: 'varchar', length: 16 })
  tool_execution_type: ToolExecutionType;

  /** webhook: `{url, timeout, headers}` (header values in clear, masked on read); static_return: `{value}`. */
  @Column({ type: COLUMN_TYPES.json })
  tool_execution_config: ToolExecutionConfig;

  @Column({ type: 'varchar', length: 16, default: 'none' })
  side_effect: SideEffect;

  /** Paths into the arguments that make a call's identity; null: every argument. */
  @Column({ type: COLUMN_TYPES.json, nullable: true })
  dedupe_key: string[] | null;

  @Column({ type: 'int', default: 3600 })
  dedupe_window_seconds: number;

  @Column({ type: 'boolean', default: false })
  notify_cancel: boolean;
}
