import { ApiProperty } from '@nestjs/swagger';
import { LLM_MODES, REALTIME_PROVIDERS, TTS_PROVIDERS } from '../assistant.constants';

/** `data` of `POST /assistant/create`. */
export class AssistantCreatedDto {
  /**
   * UUID of the created assistant.
   * @example "7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10"
   */
  assistant_id: string;

  /** The created name. */
  assistant_name: string;
}

/** `data` of `DELETE /assistant/delete/:assistant_id`. */
export class AssistantDeletedDto {
  /** UUID of the deleted assistant. */
  assistant_id: string;
}

/** Interaction settings with every default filled in. */
export class InteractionConfigResponseDto {
  speaks_first: boolean;
  /** Always false in realtime mode. */
  filler_words: boolean;
  silence_reprompts: boolean;
  /** Seconds, 1.0-60.0. */
  silence_reprompt_interval: number;
  /** 0-5. */
  @ApiProperty({ type: 'integer' })
  silence_max_reprompts: number;
}

/**
 * Stored TTS config; its keys depend on `assistant_tts_model`: `voice_id` (cartesia, elevenlabs,
 * mistral) or `speaker` + `target_language_code` (sarvam).
 */
export class TtsConfigResponseDto {
  /** cartesia, elevenlabs, mistral. */
  voice_id?: string;
  /** sarvam. */
  speaker?: string;
  /** sarvam; BCP-47, default `bn-IN`. */
  target_language_code?: string;
  /**
   * Masked provider key (`****` or `****abcd`); absent when none is stored.
   * @example "****cdef"
   */
  api_key?: string;
}

/** Realtime LLM config with defaults filled in; `api_key` masked. */
export class RealtimeLlmConfigResponseDto {
  @ApiProperty({ enum: REALTIME_PROVIDERS })
  provider: string;
  model: string;
  voice: string;
  /**
   * Masked provider key (`****` or `****abcd`); absent when none is stored.
   * @example "****cdef"
   */
  api_key?: string;
}

/** The fields every view of an assistant shares (details, list items, the runtime view). */
export class AssistantCoreDto {
  assistant_id: string;
  assistant_name: string;
  assistant_description: string;
  assistant_prompt: string;
  @ApiProperty({ enum: LLM_MODES })
  assistant_llm_mode: string;
  assistant_start_instruction: string | null;
  /** Defaults filled in; `filler_words` is false in realtime mode. */
  assistant_interaction_config: InteractionConfigResponseDto;
  assistant_end_call_enabled: boolean;
  assistant_end_call_trigger_phrase: string | null;
  assistant_end_call_agent_message: string | null;
  assistant_end_call_url: string | null;
}

/** A stored assistant with every default filled in; provider keys masked. */
export class AssistantDetailsDto extends AssistantCoreDto {
  @ApiProperty({ enum: TTS_PROVIDERS, nullable: true, type: String })
  assistant_tts_model: string | null;
  /** Stored TTS config (sarvam's `target_language_code` defaulted); `api_key` masked. */
  assistant_tts_config: TtsConfigResponseDto | null;
  /** Null when none is stored (pipeline assistants usually). */
  assistant_llm_config: RealtimeLlmConfigResponseDto | null;
  /** Ids of the tools attached to the assistant, oldest attachment first. */
  tool_ids: string[];
  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

/** `data` of `GET /assistant/list`: newest first. */
export class AssistantListDto {
  items: AssistantDetailsDto[];
  total: number;
  page: number;
  limit: number;
}
