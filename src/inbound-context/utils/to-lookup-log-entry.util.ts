import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import { lookupEntry } from '../../activity-log/log-entries';
import { classifyFailure } from '../../contracts/error-class';
import type { LookupRoute } from './route-lookup.util';
import type { SettledOutcome } from './settle-outcome.util';
import type { StrategyRequest } from './strategy-request.util';

/** The `inbound_context_lookup` activity-log entry: the same outcome the result reports. */
export function toLookupLogEntry(
  route: Pick<LookupRoute, 'room_name' | 'base' | 'version' | 'variant' | 'strategy'>,
  request: StrategyRequest,
  { outcome, fallback_used }: Pick<SettledOutcome, 'outcome' | 'fallback_used'>,
): ActivityLogInput {
  const { config } = request;
  return lookupEntry(
    {
      user_id: request.user_id,
      status: outcome.ok ? 'success' : 'error',
      assistant_id: route.base.assistant_id,
      room_name: route.room_name,
      message: outcome.ok
        ? `Inbound context lookup succeeded: HTTP ${outcome.status_code}, ${Object.keys(outcome.context).length} context key(s)`
        : `Inbound context lookup failed (${outcome.kind}): ${outcome.message}${fallback_used ? '; rendered with the fallback context' : ''}`,
      latency_ms: outcome.latency_ms,
      error_class: outcome.ok ? null : classifyFailure(outcome.kind, outcome.status_code),
      trace_id: request.trace.trace_id,
    },
    {
      assistant_version: route.version,
      variant: route.variant,
      strategy_id: request.strategy_id,
      strategy_type: route.strategy?.strategy_type ?? 'webhook',
      url: config.url,
      headers: config.headers,
      timeout_seconds: config.timeout_seconds,
      payload: request.payload,
    },
    outcome,
    fallback_used,
  );
}
