import { toIso } from '../common/time/iso';
import { maskHeaders } from '../common/secrets/masking';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { STRATEGY_TIMEOUT_SECONDS } from './inbound-context.constants';
import type { StrategyResponseDto } from './dto/strategy-response.dto';

/** A strategy's config as the service uses it, whatever the stored JSON holds. */
export interface StrategyConfig {
  /** Null when the stored record has none (legacy or hand-edited rows): the lookup logs `missing_url`. */
  url: string | null;
  headers: Record<string, string>;
  timeout_seconds: number;
}

/** Tolerant reader: a stored config never makes a lookup throw, it makes it fail with a reason. */
export function readStrategyConfig(
  raw: Record<string, unknown> | null | undefined,
): StrategyConfig {
  const config = raw ?? {};
  const url = typeof config.url === 'string' && config.url.trim() !== '' ? config.url : null;
  const headers: Record<string, string> = {};
  if (config.headers && typeof config.headers === 'object' && !Array.isArray(config.headers)) {
    for (const [name, value] of Object.entries(config.headers as Record<string, unknown>)) {
      if (typeof value === 'string') headers[name] = value;
    }
  }
  const t = config.timeout_seconds;
  const timeout_seconds =
    typeof t === 'number' && Number.isFinite(t)
      ? Math.min(STRATEGY_TIMEOUT_SECONDS.max, Math.max(STRATEGY_TIMEOUT_SECONDS.min, t))
      : STRATEGY_TIMEOUT_SECONDS.default;
  return { url, headers, timeout_seconds };
}

/** The API view of a strategy: defaults filled in, sensitive header values masked. */
export function toStrategyResponse(entity: InboundContextStrategyEntity): StrategyResponseDto {
  const config = readStrategyConfig(entity.strategy_config);
  return {
    strategy_id: entity.strategy_id,
    strategy_name: entity.strategy_name,
    strategy_type: entity.strategy_type,
    strategy_config: {
      url: config.url ?? '',
      headers: maskHeaders(config.headers),
      timeout_seconds: config.timeout_seconds,
    },
    is_active: Boolean(entity.is_active),
    created_at: toIso(entity.created_at),
    updated_at: toIso(entity.updated_at),
  };
}
