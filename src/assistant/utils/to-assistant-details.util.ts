import { maskSecret } from '../../common/secrets/masking';
import { maskUrl } from '../../common/secrets/url-masking';
import { toIso } from '../../common/time/iso';
import type { AssistantEntity } from '../assistant.entity';
import type { EffectiveAssistantConfig } from '../assistant.types';
import type { AssistantCoreDto, AssistantDetailsDto } from '../dto/assistant-response.dto';
import { toEffectiveConfig } from './to-effective-config.util';

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
