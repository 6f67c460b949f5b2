import { toIso } from '../common/time/iso';
import { maskHeaders, maskUrl } from '../common/secrets/masking';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { STRATEGY_TIMEOUT_SECONDS } from './inbound-context.constants';
import type { StrategyResponseDto } from './dto/strategy-response.dto';

/** A strategy's config as the service uses it, whatever the stored JSON holds. */
export interface StrategyConfig {
  /** Null when the stored record has none (the create rules require one): the lookup logs `missing_url`. */
  url: string | null;
  headers: Record<string, string>;
  timeout_seconds: number;
  /** What a failed lookup renders with; null when none is set. */
  fallback_context: Record<string, unknown> | null;
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
  const fallback = config.fallback_context;
  const fallback_context =
    fallback !== null && typeof fallback === 'object' && !Array.isArray(fallback)
      ? (fallback as Record<string, unknown>)
      : null;
  return { url, headers, timeout_seconds, fallback_context };
}

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
