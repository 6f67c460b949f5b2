import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type { LlmMode, TtsProvider } from './assistant.constants';
import type { InteractionConfig, RealtimeLlmConfig, TtsConfig } from './assistant.types';

/**
 * Property names mirror the API fields so a stored record and its API shape read the same.
 * Nested configs are stored as sent plus defaults; provider `api_key`s live inside them and are
 * masked on every read except the runtime view.
 */
@Entity('assistants')
@Index('idx_assistants_user_created', ['user_id', 'created_at'])
export class AssistantEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  assistant_id: string;

  @Column({ type: 'varchar', length: 100 })
  assistant_name: string;

  @Column({ type: COLUMN_TYPES.longText })
  assistant_description: string;

  @Column({ type: COLUMN_TYPES.longText })
  assistant_prompt: string;

  @Column({ type: 'varchar', length: 16 })
  assistant_llm_mode: LlmMode;

  @Column({ type: 'varchar', length: 200, nullable: true })
  assistant_start_instruction: string | null;

  @Column({ type: COLUMN_TYPES.json })
  assistant_interaction_config: InteractionConfig;

  @Column({ type: 'boolean', default: false })
  assistant_end_call_enabled: boolean;

  @Column({ type: 'text', nullable: true })
  assistant_end_call_trigger_phrase: string | null;

  @Column({ type: 'text', nullable: true })
  assistant_end_call_agent_message: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  assistant_end_call_url: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  assistant_tts_model: TtsProvider | null;

  @Column({ type: COLUMN_TYPES.json, nullable: true })
  assistant_tts_config: TtsConfig | null;

  @Column({ type: COLUMN_TYPES.json, nullable: true })
  assistant_llm_config: RealtimeLlmConfig | null;
}
