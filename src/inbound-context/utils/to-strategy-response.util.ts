import { maskHeaders } from '../../common/secrets/masking';
import { maskUrl } from '../../common/secrets/url-masking';
import { toIso } from '../../common/time/iso';
import type { StrategyResponseDto } from '../dto/strategy-response.dto';
import type { InboundContextStrategyEntity } from '../inbound-context-strategy.entity';
import { readStrategyConfig } from './read-strategy-config.util';

/** The API view of a strategy: defaults filled in, sensitive header values and URL credentials masked. */
export function toStrategyResponse(entity: InboundContextStrategyEntity): StrategyResponseDto {
  const config = readStrategyConfig(entity.strategy_config);
  return {
    strategy_id: entity.strategy_id,
    strategy_name: entity.strategy_name,
    strategy_type: entity.strategy_type,
    strategy_config: {
      url: maskUrl(config.url ?? ''),
      headers: maskHeaders(config.headers),
      timeout_seconds: config.timeout_seconds,
      ...(config.fallback_context ? { fallback_context: config.fallback_context } : {}),
    },
    is_active: Boolean(entity.is_active),
    created_at: toIso(entity.created_at),
    updated_at: toIso(entity.updated_at),
  };
}
