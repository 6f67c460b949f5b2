import type { ReferencingField } from '../../common/secrets/secret-reference';

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
  return [
    {
      field: 'assistant_end_call_url',
      value:
        typeof assistant.assistant_end_call_url === 'string'
          ? assistant.assistant_end_call_url
          : null,
      context: 'url',
    },
    {
      field: 'assistant_tts_config.api_key',
      value: keyOf(assistant.assistant_tts_config),
      context: 'text',
    },
    {
      field: 'assistant_llm_config.api_key',
      value: keyOf(assistant.assistant_llm_config),
      context: 'text',
    },
  ];
}
