import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import { lookupEntry } from '../../activity-log/log-entries';
import { classifyFailure } from '../../contracts/error-class';
import type { LookupRoute } from './route-lookup.util';
import type { StrategyConfig } from './read-strategy-config.util';
import type { SettledOutcome } from './settle-outcome.util';

/** What a lookup that went through its strategy logs; `lookupEntry` redacts the URL and headers. */
export interface LookupLogInput {
  route: Pick<LookupRoute, 'mapping' | 'base' | 'version' | 'variant' | 'strategy'> & {
    strategyId: string;
  };
  room_name: string;
  config: StrategyConfig;
  payload: Record<string, unknown>;
  settled: SettledOutcome;
  trace_id: string | null;
}

/** The `inbound_context_lookup` activity-log entry: the same outcome the result reports. */
export function toLookupLogEntry(input: LookupLogInput): ActivityLogInput {
  const { route, config, settled } = input;
  const { outcome, fallback_used } = settled;
  return lookupEntry(
    {
      user_id: route.mapping.user_id,
      status: outcome.ok ? 'success' : 'error',
      assistant_id: route.base.assistant_id,
      room_name: input.room_name,
      message: outcome.ok
        ? `Inbound context lookup succeeded: HTTP ${outcome.status_code}, ${Object.keys(outcome.context).length} context key(s)`
        : `Inbound context lookup failed (${outcome.kind}): ${outcome.message}${fallback_used ? '; rendered with the fallback context' : ''}`,
      latency_ms: outcome.latency_ms,
      error_class: outcome.ok ? null : classifyFailure(outcome.kind, outcome.status_code),
      trace_id: input.trace_id,
    },
    {
      assistant_version: route.version,
      variant: route.variant,
      strategy_id: route.strategyId,
      strategy_type: route.strategy?.strategy_type ?? 'webhook',
      url: config.url,
      headers: config.headers,
      timeout_seconds: config.timeout_seconds,
      payload: input.payload,
    },
    outcome,
    fallback_used,
  );
}
