import type { InteractionConfigResponseDto } from './dto/assistant-response.dto';
import type { LlmMode, RealtimeProvider, TtsProvider } from './assistant.constants';

/** Stored and returned alike: every key present (defaults applied). */
export type InteractionConfig = InteractionConfigResponseDto;

/** Keys depend on the provider: `voice_id` or `speaker` + `target_language_code`; `api_key` optional. */
export type TtsConfig = Partial<
  Record<'voice_id' | 'speaker' | 'target_language_code' | 'api_key', string>
>;

export type RealtimeLlmConfig = {
  provider: RealtimeProvider;
  model: string;
  voice: string;
  api_key?: string;
};

/** The API fields of an assistant, as stored (and as re-validated by CreateAssistantDto). */
export interface AssistantFields {
  assistant_name: string;
  assistant_description: string;
  assistant_prompt: string;
  assistant_llm_mode: LlmMode;
  assistant_start_instruction: string | null;
  assistant_interaction_config: InteractionConfig;
  assistant_end_call_enabled: boolean;
  assistant_end_call_trigger_phrase: string | null;
  assistant_end_call_agent_message: string | null;
  assistant_end_call_url: string | null;
  assistant_tts_model: TtsProvider | null;
  assistant_tts_config: TtsConfig | null;
  assistant_llm_config: RealtimeLlmConfig | null;
}

/**
 * Fields from anywhere (a create body, a patch, a merged record, a stored row), each read for
 * what it holds: the defaults and the merge never trust a shape they did not build.
 */
export type AssistantFieldsInput = { [K in keyof AssistantFields]?: unknown };

/**
 * What the call stack runs: every default filled in, provider keys in clear. Never returned by
 * a public route as is; `toAssistantDetails` masks it.
 */
export interface EffectiveAssistantConfig extends AssistantFields {
  assistant_id: string;
  user_id: string;
  created_at: Date;
  updated_at: Date;
}
