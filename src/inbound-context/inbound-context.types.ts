/** A strategy's config as stored: defaults applied, header values in clear (masked on every read). */
export type StoredStrategyConfig = {
  url: string;
  headers: Record<string, string>;
  timeout_seconds: number;
  /** Absent when the strategy has none. */
  fallback_context?: Record<string, unknown>;
};
