import type { ReferencingField } from '../../common/secrets/secret-reference';
import { originOf, PROVIDER } from '../../common/secrets/secret-origins';

/**
 * The fields of an assistant that may hold `{{secret.NAME}}`, named as the API names them:
 * `assistant_end_call_url` and the provider `api_key`s. Checked when an assistant is saved and
 * listed for the secret's `used_by`, for the working copy and for each published version.
 */
export function assistantReferencingFields(assistant: {
  assistant_end_call_url?: unknown;
  assistant_tts_config?: unknown;
  assistant_llm_config?: unknown;
}): ReferencingField[] {
  const keyOf = (config: unknown) => {
    const key = (config as { api_key?: unknown } | null | undefined)?.api_key;
    return typeof key === 'string' ? key : null;
  };
  const url =
    typeof assistant.assistant_end_call_url === 'string' ? assistant.assistant_end_call_url : null;
  const key = (field: string, config: unknown): ReferencingField => ({
    field,
    value: keyOf(config),
    context: 'text',
    destination: PROVIDER,
  });
  return [
    { field: 'assistant_end_call_url', value: url, context: 'url', destination: originOf(url) },
    key('assistant_tts_config.api_key', assistant.assistant_tts_config),
    key('assistant_llm_config.api_key', assistant.assistant_llm_config),
  ];
}
