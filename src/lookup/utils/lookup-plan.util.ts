import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { CallVariables } from '../../assistant/prompt-render';
import { type TraceContext, traceOf } from '../../telemetry/trace-context';
import { normalizePhoneNumber } from '../../common/validation/phone-number';
import type {
  InboundContextLookupErrorKind,
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import type { InboundContextStrategyEntity } from '../../inbound-context/inbound-context-strategy.entity';
import type { InboundMappingEntity } from '../../inbound-context/inbound-mapping.entity';
import type { ResolvedMapping } from '../../inbound-context/lookup.repository';
import { chooseAssistant } from '../variant-choice';
import { readStrategyConfig, type StrategyConfig } from '../../inbound-context/utils/read-strategy-config.util';

/*
 * What an inbound context lookup will do, decided before anything is sent: where the mapping
 * routes the call (`routeLookup`), what the strategy's webhook would be sent (`toStrategyRequest`)
 * and whether it is called at all (`decideLookup`). No I/O and no clock read (the caller passes
 * `now`). What came of it is in `lookup-outcome.util.ts`.
 */

// Route: the assistant (pin or split arm) and the strategy.

/** The fields every result of a routed lookup carries, whatever its outcome. */
export type LookupResultBase = Pick<
  InboundContextLookupResult,
  'assistant_id' | 'assistant_name' | 'assistant_version' | 'variant' | 'inbound_id' | 'strategy_id'
>;

/** Where a resolved mapping sends this call: the assistant (and version) it renders, and the strategy. */
export interface LookupRoute {
  room_name: string;
  mapping: InboundMappingEntity;
  assistant: AssistantEntity | null;
  /** Null for the working copy. */
  version: number | null;
  variant: number | null;
  strategyId: string | null;
  strategy: InboundContextStrategyEntity | null;
  base: LookupResultBase;
  call: CallVariables;
}

/** How a job names its mapping: the cache key of what it resolves to. */
export function mappingKey(data: InboundContextLookupJobData): string {
  return data.inbound_id
    ? `id:${data.inbound_id}`
    : `number:${normalizePhoneNumber(data.inbound_number ?? '')}`;
}

/** The pin, or this caller's arm of the split; the call's later jobs run the same version. */
export function routeLookup(
  found: ResolvedMapping,
  data: InboundContextLookupJobData,
): LookupRoute {
  const { mapping, strategy } = found;
  const { assistant, version, variant } = chooseAssistant(found, data);
  const strategyId = mapping.inbound_context_strategy_id;
  return {
    room_name: data.room_name,
    mapping,
    assistant,
    version,
    variant,
    strategyId,
    strategy,
    base: {
      assistant_id: assistant?.assistant_id ?? mapping.assistant_id,
      assistant_name: assistant?.assistant_name ?? null,
      assistant_version: version,
      variant,
      inbound_id: mapping.inbound_id,
      strategy_id: strategyId,
    },
    call: callVariables(data, mapping),
  };
}

// The strategy request: what the webhook would be sent, and on whose behalf.

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

// Decide: call the webhook (within the time left) or fail without sending anything.

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

// The webhook body and the `{{call.*}}` values, shared with the strategy's dry run.

/** The call a payload describes: the job's own values (or the dry run's sample ones). */
export type PayloadCall = Pick<InboundContextLookupJobData, 'room_name' | 'caller_number'>;

/** The spec's webhook body. Keys may be added, never removed. */
export function buildPayload(
  data: PayloadCall,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized' | 'assistant_id'>,
  assistant: Pick<AssistantEntity, 'assistant_id' | 'assistant_name'> | null,
  strategy: Pick<InboundContextStrategyEntity, 'strategy_name' | 'strategy_type'> | null,
  strategyId: string,
): Record<string, unknown> {
  return {
    assistant_id: assistant?.assistant_id ?? mapping.assistant_id ?? '',
    assistant_name: assistant?.assistant_name ?? '',
    room_name: data.room_name,
    strategy_id: strategyId,
    strategy_name: strategy?.strategy_name ?? '',
    strategy_type: strategy?.strategy_type ?? 'webhook',
    call_type: 'inbound',
    service: 'exotel',
    inbound_id: mapping.inbound_id,
    ...(data.caller_number !== undefined ? { caller_number: data.caller_number } : {}),
    inbound_number: mapping.phone_number_normalized,
  };
}

/** What `{{call.*}}` renders: the same values the webhook payload carries. */
export function callVariables(
  data: PayloadCall,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized'>,
): CallVariables {
  return {
    caller_number: data.caller_number ?? null,
    inbound_number: mapping.phone_number_normalized,
    room_name: data.room_name,
    inbound_id: mapping.inbound_id,
    call_type: 'inbound',
  };
}

// A failure decided here, before or without a webhook answer.

/** A lookup that ended before (or without) a webhook answer. */
export interface LookupFailure {
  ok: false;
  kind: InboundContextLookupErrorKind;
  message: string;
  status_code?: number;
  latency_ms: number;
}

/** A failure decided here, not by the webhook: nothing was sent, so no time was spent. */
export function lookupFailure(kind: InboundContextLookupErrorKind, message: string): LookupFailure {
  return { ok: false, kind, message, latency_ms: 0 };
}
