import { headerFields, type ReferencingField } from '../common/secrets/secret-reference';

/**
 * The fields of each resource that may hold `{{secret.NAME}}`, named as the API names them. One
 * list per resource type, used both when a resource is saved (every reference must be usable) and
 * when `used_by` is computed.
 */

type Headers = Record<string, string> | null | undefined;

/** A tool: its webhook `url` and header values. */
export function toolReferencingFields(tool: {
  tool_execution_type: string;
  tool_execution_config: unknown;
}): ReferencingField[] {
  if (tool.tool_execution_type !== 'webhook') return [];
  const config = (tool.tool_execution_config ?? {}) as { url?: unknown; headers?: Headers };
  return [
    {
      field: 'tool_execution_config.url',
      value: typeof config.url === 'string' ? config.url : null,
      context: 'url',
    },
    ...headerFields('tool_execution_config.headers', config.headers),
  ];
}

/** A strategy: `strategy_config.url` and header values. */
export function strategyReferencingFields(strategy: {
  strategy_config: unknown;
}): ReferencingField[] {
  const config = (strategy.strategy_config ?? {}) as { url?: unknown; headers?: Headers };
  return [
    {
      field: 'strategy_config.url',
      value: typeof config.url === 'string' ? config.url : null,
      context: 'url',
    },
    ...headerFields('strategy_config.headers', config.headers),
  ];
}

/** An assistant: `assistant_end_call_url` and the provider `api_key`s. */
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
