import type { FieldError } from '../../common/errors/app.exception';
import { mergeSecret } from '../../common/secrets/masking';
import type { AssistantFields, AssistantFieldsInput } from '../assistant.types';

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
  /** The merged record, to be re-validated with CreateAssistantDto and then `applyAssistantDefaults`. */
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
export function mergeAssistantPatch(
  stored: AssistantFields,
  patch: AssistantFieldsInput,
): MergeResult {
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
            : mergeConfig({ ...stored.assistant_interaction_config }, value as Plain);
        break;
      case 'assistant_llm_config':
        merged[field] =
          value === null ? null : mergeConfig(stored.assistant_llm_config, value as Plain);
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
