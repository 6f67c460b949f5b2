export const STRATEGY_TYPES = ['webhook'] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];

export const INBOUND_SERVICES = ['exotel'] as const;
export type InboundService = (typeof INBOUND_SERVICES)[number];

export const STRATEGY_NAME_MAX_LENGTH = 100;
export const STRATEGY_URL_MAX_LENGTH = 500;
export const STRATEGY_MAX_HEADERS = 50;

/** Largest `strategy_config.fallback_context`, as JSON text in UTF-8. */
export const STRATEGY_FALLBACK_CONTEXT_MAX_BYTES = 16_384;
