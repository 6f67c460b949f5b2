import { headerFields, type ReferencingField } from '../../common/secrets/secret-reference';
import { originOf } from '../../common/secrets/secret-origins';

type Headers = Record<string, string> | null | undefined;

/**
 * The fields of a strategy that may hold `{{secret.NAME}}`, named as the API names them:
 * `strategy_config.url` and header values. Checked when a strategy is saved and listed for the
 * secret's `used_by`.
 */
export function strategyReferencingFields(strategy: {
  strategy_config: unknown;
}): ReferencingField[] {
  const config = (strategy.strategy_config ?? {}) as { url?: unknown; headers?: Headers };
  const url = typeof config.url === 'string' ? config.url : null;
  const destination = originOf(url);
  return [
    { field: 'strategy_config.url', value: url, context: 'url', destination },
    ...headerFields('strategy_config.headers', config.headers, destination),
  ];
}
