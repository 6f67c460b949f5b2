import { STRATEGY_TIMEOUT_SECONDS } from '../../contracts/limits';
import type { StoredStrategyConfig } from '../inbound-context.types';

/** A strategy's config as the lookup uses it: every key present, the timeout within its bounds. */
export interface StrategyConfig {
  /** Null when there is no strategy record to read (or its URL is blank): the lookup logs `missing_url`. */
  url: string | null;
  headers: Record<string, string>;
  timeout_seconds: number;
  /** What a failed lookup renders with; null when none is set. */
  fallback_context: Record<string, unknown> | null;
}

/** Reads a stored config; a lookup without a strategy record reads `undefined` and fails with a reason. */
export function readStrategyConfig(
  raw: Partial<StoredStrategyConfig> | null | undefined,
): StrategyConfig {
  const config = raw ?? {};
  const url = typeof config.url === 'string' && config.url.trim() !== '' ? config.url : null;
  const headers: Record<string, string> = {};
  if (config.headers && typeof config.headers === 'object' && !Array.isArray(config.headers)) {
    for (const [name, value] of Object.entries(config.headers)) {
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
    fallback !== null && typeof fallback === 'object' && !Array.isArray(fallback) ? fallback : null;
  return { url, headers, timeout_seconds, fallback_context };
}
