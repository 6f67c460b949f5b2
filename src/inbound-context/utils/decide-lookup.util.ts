import type { InboundContextStrategyEntity } from '../inbound-context-strategy.entity';
import { lookupFailure, type LookupFailure } from './lookup-failure.util';
import type { StrategyConfig } from './read-strategy-config.util';
import type { StrategyRequest } from './strategy-request.util';

/** Time kept back from the producer's deadline to write the log entry and deliver the result. */
export const RESULT_DELIVERY_MARGIN_MS = 250;

/** The webhook call a lookup may make: the strategy's config, its timeout cut to what time is left. */
export type WebhookCallConfig = StrategyConfig & { url: string };

/** Either the call to make, or the outcome of not making one. */
export type LookupDecision = { call: WebhookCallConfig } | { outcome: LookupFailure };

/**
 * Whether a routed lookup calls its strategy's webhook (and with which time budget) or fails
 * before sending anything. The call ends early enough for the result to reach the producer
 * before it stops waiting (`deadline`, epoch ms).
 */
export function decideLookup(
  route: {
    assistant: unknown;
    strategy: Pick<InboundContextStrategyEntity, 'is_active'> | null;
  },
  { strategy_id, config }: Pick<StrategyRequest, 'strategy_id' | 'config'>,
  deadline: number,
  now: number,
): LookupDecision {
  const { assistant, strategy } = route;
  const fail = (...args: Parameters<typeof lookupFailure>) => ({ outcome: lookupFailure(...args) });
  if (!assistant) return fail('assistant_not_found', 'the inbound mapping has no assistant');
  if (!strategy) return fail('strategy_not_found', `strategy ${strategy_id} no longer exists`);
  if (!strategy.is_active)
    return fail('strategy_inactive', 'the strategy is inactive; the webhook was not called');
  if (!config.url)
    return fail('missing_url', 'the strategy has no URL; the webhook was not called');
  if (now >= deadline - RESULT_DELIVERY_MARGIN_MS)
    return fail(
      'expired',
      `the producer's deadline passed ${Math.max(0, now - deadline)} ms before the lookup started; the webhook was not called`,
    );
  const budgetMs = deadline - RESULT_DELIVERY_MARGIN_MS - now;
  const timeout_seconds = Math.min(config.timeout_seconds, budgetMs / 1000);
  return { call: { ...config, url: config.url, timeout_seconds } };
}
