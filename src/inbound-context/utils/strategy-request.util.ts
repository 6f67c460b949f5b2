import { type TraceContext, traceOf } from '../../common/http/trace-context';
import type { InboundContextLookupJobData } from '../../contracts/inbound-context-lookup.contract';
import { buildPayload } from './lookup-payload.util';
import { readStrategyConfig, type StrategyConfig } from './read-strategy-config.util';
import type { LookupRoute } from './route-lookup.util';

/** What a lookup would send its strategy's webhook, and on whose behalf; decided before any call. */
export interface StrategyRequest {
  user_id: string;
  strategy_id: string;
  /** Defaults filled in; a strategy record that is gone reads as one without a URL or fallback. */
  config: StrategyConfig;
  payload: Record<string, unknown>;
  /** The job's trace; the webhook request carries a child span of it. */
  trace: TraceContext;
}

export function toStrategyRequest(
  data: InboundContextLookupJobData,
  route: Pick<LookupRoute, 'mapping' | 'assistant' | 'strategy'>,
  strategyId: string,
): StrategyRequest {
  return {
    user_id: route.mapping.user_id,
    strategy_id: strategyId,
    config: readStrategyConfig(route.strategy?.strategy_config),
    payload: buildPayload(data, route.mapping, route.assistant, route.strategy, strategyId),
    trace: traceOf(data.traceparent),
  };
}
