import { headerFields, type ReferencingField } from '../../common/secrets/secret-reference';
import { originOf } from '../../common/secrets/secret-origins';

type Headers = Record<string, string> | null | undefined;

/**
 * The fields of a tool that may hold `{{secret.NAME}}`, named as the API names them: its webhook
 * `url` and header values. Checked when a tool is saved (every reference must be usable) and
 * listed for the secret's `used_by`, here and in each published version that holds the tool.
 */
export function toolReferencingFields(tool: {
  tool_execution_type: string;
  tool_execution_config: unknown;
}): ReferencingField[] {
  if (tool.tool_execution_type !== 'webhook') return [];
  const config = (tool.tool_execution_config ?? {}) as { url?: unknown; headers?: Headers };
  const url = typeof config.url === 'string' ? config.url : null;
  const destination = originOf(url);
  return [
    { field: 'tool_execution_config.url', value: url, context: 'url', destination },
    ...headerFields('tool_execution_config.headers', config.headers, destination),
  ];
}
