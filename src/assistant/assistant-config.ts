import { toIso } from '../common/time/iso';
import type { FieldError } from '../common/errors/app.exception';
import { maskSecret, maskUrl, mergeSecret } from '../common/secrets/masking';
import {
  DEFAULT_LLM_MODE,
  INTERACTION_DEFAULTS,
  REALTIME_LLM_DEFAULTS,
  SARVAM_DEFAULT_LANGUAGE,
  type LlmMode,
  type RealtimeProvider,
  type TtsProvider,
} from './assistant.constants';
import type { AssistantEntity } from './assistant.entity';
import type { AssistantCoreDto, AssistantDetailsDto } from './dto/assistant-response.dto';

/*
 * Pure functions over assistant configs: defaults, merge-on-update and masking. The HTTP layer
 * validates shapes (CreateAssistantDto); these functions assume validated input and never throw.
 */

export interface InteractionConfig {
  speaks_first: boolean;
  filler_words: boolean;
  silence_reprompts: boolean;
  silence_reprompt_interval: number;
  silence_max_reprompts: number;
}

/** Keys depend on the provider: `voice_id` or `speaker` + `target_language_code`; `api_key` optional. */
export type TtsConfig = Partial<
  Record<'voice_id' | 'speaker' | 'target_language_code' | 'api_key', string>
>;

export interface RealtimeLlmConfig {
  provider: RealtimeProvider;
  model: string;
  voice: string;
  api_key?: string;
}

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
 * What the call stack runs: every default filled in, provider keys in clear. Never returned by
 * a public route as is; `toAssistantDetails` masks it.
 */
export interface EffectiveAssistantConfig extends AssistantFields {
  assistant_id: string;
  user_id: string;
  created_at: Date;
  updated_at: Date;
}

export const FIELD_NAMES = [
  'assistant_name',
  'assistant_description',
  'assistant_prompt',
  'assistant_llm_mode',
  'assistant_start_instruction',
  'assistant_interaction_config',
  'assistant_end_call_enabled',
  'assistant_end_call_trigger_phrase',
  'assistant_end_call_agent_message',
  'assistant_end_call_url',
  'assistant_tts_model',
  'assistant_tts_config',
  'assistant_llm_config',
] as const satisfies readonly (keyof AssistantFields)[];

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
export function applyDefaults(input: Plain): AssistantFields {
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

/** The stored entity as the call stack uses it: defaults filled in, keys in clear. */
export function toEffectiveConfig(entity: AssistantEntity): EffectiveAssistantConfig {
  return {
    assistant_id: entity.assistant_id,
    user_id: entity.user_id,
    ...applyDefaults(entity as unknown as Plain),
    created_at: entity.created_at,
    updated_at: entity.updated_at,
  };
}

/** A config with its `api_key` masked (`****` / `****abcd`); absent stays absent. */
function maskConfigKey<T extends { api_key?: string }>(config: T | null): T | null {
  if (!config) return null;
  if (config.api_key === undefined) return { ...config };
  return { ...config, api_key: maskSecret(config.api_key) ?? undefined };
}

/** The fields every view of an assistant shares (`AssistantCoreDto`), from the effective config. */
export function assistantCoreFields(config: EffectiveAssistantConfig): AssistantCoreDto {
  return {
    assistant_id: config.assistant_id,
    assistant_name: config.assistant_name,
    assistant_description: config.assistant_description,
    assistant_prompt: config.assistant_prompt,
    assistant_llm_mode: config.assistant_llm_mode,
    assistant_start_instruction: config.assistant_start_instruction,
    assistant_interaction_config: { ...config.assistant_interaction_config },
    assistant_end_call_enabled: config.assistant_end_call_enabled,
    assistant_end_call_trigger_phrase: config.assistant_end_call_trigger_phrase,
    assistant_end_call_agent_message: config.assistant_end_call_agent_message,
    assistant_end_call_url: maskUrl(config.assistant_end_call_url),
  };
}

/** The public view of an assistant: defaults filled in, provider keys masked, ISO timestamps. */
export function toAssistantDetails(
  entity: AssistantEntity,
  toolIds: string[],
): AssistantDetailsDto {
  const config = toEffectiveConfig(entity);
  return {
    ...assistantCoreFields(config),
    assistant_tts_model: config.assistant_tts_model,
    assistant_tts_config: maskConfigKey(config.assistant_tts_config),
    assistant_llm_config: maskConfigKey(config.assistant_llm_config),
    tool_ids: toolIds,
    created_at: toIso(config.created_at),
    updated_at: toIso(config.updated_at),
  };
}

/** Merges a patch key by key: absent keeps, `null` deletes (the default applies again), masked api_key keeps. */
function mergeConfig(stored: Plain | null, patch: Plain): Plain {
  const out: Plain = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === 'api_key') {
      const kept = mergeSecret(
        typeof out.api_key === 'string' ? out.api_key : undefined,
        value as string | null,
      );
      if (kept === undefined) delete out.api_key;
      else out.api_key = kept;
      continue;
    }
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

export interface MergeResult {
  /** The merged record, to be re-validated with CreateAssistantDto and then `applyDefaults`. */
  merged: Plain;
  /** Rules that need the stored record (the DTO cannot see it). */
  errors: FieldError[];
}

/**
 * A PATCH applied to the stored fields. Top-level fields replace (`null` clears);
 * `assistant_interaction_config` and `assistant_llm_config` merge key by key; so does
 * `assistant_tts_config` while the provider stays the same. Changing `assistant_tts_model`
 * needs the new provider's config in the same request (a stored key of another provider is
 * never carried over).
 */
export function mergeAssistantUpdate(stored: AssistantFields, patch: Plain): MergeResult {
  const errors: FieldError[] = [];
  const merged: Plain = {};
  for (const field of FIELD_NAMES) merged[field] = stored[field];

  for (const field of FIELD_NAMES) {
    const value = patch[field];
    if (value === undefined) continue;
    switch (field) {
      case 'assistant_interaction_config':
        merged[field] =
          value === null
            ? {}
            : mergeConfig(stored.assistant_interaction_config as unknown as Plain, value as Plain);
        break;
      case 'assistant_llm_config':
        merged[field] =
          value === null
            ? null
            : mergeConfig(stored.assistant_llm_config as unknown as Plain | null, value as Plain);
        break;
      case 'assistant_tts_config':
      case 'assistant_tts_model':
        break; // below, together
      default:
        merged[field] = value;
    }
  }

  const sentModel = patch.assistant_tts_model;
  const sentConfig = patch.assistant_tts_config;
  const modelChanges = sentModel !== undefined && sentModel !== stored.assistant_tts_model;
  if (modelChanges) {
    merged.assistant_tts_model = sentModel;
    if (sentModel === null) {
      merged.assistant_tts_config = null;
    } else if (sentConfig === undefined || sentConfig === null) {
      errors.push({
        field: 'assistant_tts_config',
        message: 'assistant_tts_config is required when assistant_tts_model changes',
      });
    } else {
      merged.assistant_tts_config = mergeConfig(null, sentConfig as Plain);
    }
  } else if (sentConfig === null) {
    merged.assistant_tts_config = null;
  } else if (sentConfig !== undefined) {
    merged.assistant_tts_config = mergeConfig(stored.assistant_tts_config, sentConfig as Plain);
  }
  return { merged, errors };
}
