import {
  DEFAULT_LLM_MODE,
  INTERACTION_DEFAULTS,
  REALTIME_LLM_DEFAULTS,
  SARVAM_DEFAULT_LANGUAGE,
  type LlmMode,
  type TtsProvider,
} from '../assistant.constants';
import type {
  AssistantFields,
  AssistantFieldsInput,
  InteractionConfig,
  RealtimeLlmConfig,
  TtsConfig,
} from '../assistant.types';

type Plain = Record<string, unknown>;

function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy without `undefined`/`null` values: absent and `null` both mean "take the default". */
function compact(value: unknown): Plain {
  const out: Plain = {};
  if (!isPlainObject(value)) return out;
  for (const [key, v] of Object.entries(value)) if (v !== undefined && v !== null) out[key] = v;
  return out;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function interactionWithDefaults(sent: unknown, mode: LlmMode): InteractionConfig {
  const merged = { ...INTERACTION_DEFAULTS, ...compact(sent) } as InteractionConfig;
  // There is no external speech synthesis in realtime mode, so no filler words either.
  if (mode === 'realtime') merged.filler_words = false;
  return merged;
}

export function ttsConfigWithDefaults(model: unknown, sent: unknown): TtsConfig | null {
  if (!isPlainObject(sent)) return null;
  const config = compact(sent) as TtsConfig;
  if (model === 'sarvam' && config.target_language_code === undefined) {
    config.target_language_code = SARVAM_DEFAULT_LANGUAGE;
  }
  return config;
}

export function llmConfigWithDefaults(sent: unknown): RealtimeLlmConfig | null {
  if (!isPlainObject(sent)) return null;
  return { ...REALTIME_LLM_DEFAULTS, ...compact(sent) };
}

/**
 * Validated fields (a create body, a merged update, or a stored row) with every default filled
 * in. Idempotent, so it is applied before storing and again when reading.
 */
export function applyAssistantDefaults(input: AssistantFieldsInput): AssistantFields {
  const mode: LlmMode = input.assistant_llm_mode === 'realtime' ? 'realtime' : DEFAULT_LLM_MODE;
  const ttsModel = str(input.assistant_tts_model) as TtsProvider | null;
  return {
    assistant_name: str(input.assistant_name) ?? '',
    assistant_description: str(input.assistant_description) ?? '',
    assistant_prompt: str(input.assistant_prompt) ?? '',
    assistant_llm_mode: mode,
    assistant_start_instruction: str(input.assistant_start_instruction),
    assistant_interaction_config: interactionWithDefaults(input.assistant_interaction_config, mode),
    assistant_end_call_enabled: input.assistant_end_call_enabled === true,
    assistant_end_call_trigger_phrase: str(input.assistant_end_call_trigger_phrase),
    assistant_end_call_agent_message: str(input.assistant_end_call_agent_message),
    assistant_end_call_url: str(input.assistant_end_call_url),
    assistant_tts_model: ttsModel,
    assistant_tts_config: ttsConfigWithDefaults(ttsModel, input.assistant_tts_config),
    assistant_llm_config: llmConfigWithDefaults(input.assistant_llm_config),
  };
}
