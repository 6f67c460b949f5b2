import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import { lookupEntry } from '../../activity-log/log-entries';
import type { AssistantEntity } from '../../assistant/assistant.entity';
import {
  type CallVariables,
  type RenderedAssistantTemplates,
  renderAssistantTemplates,
} from '../../assistant/prompt-render';
import { classifyFailure } from '../../contracts/error-class';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import type { StrategyWebhookOutcome } from '../strategy-webhook';
import {
  lookupFailure,
  type LookupFailure,
  type LookupResultBase,
  type LookupRoute,
  type StrategyRequest,
} from './lookup-plan.util';

/*
 * What came of an inbound context lookup: the webhook's outcome once the prompt is rendered
 * (`settleOutcome`), the activity-log entry (`toLookupLogEntry`) and the result the call worker
 * starts the call with (`toLookupResult`, or an early result when there is no mapping or no
 * strategy). No I/O. What the lookup set out to do is in `lookup-plan.util.ts`.
 */

// Render: the result and the log entry both come from one settled outcome.

export type RenderableAssistant = Pick<
  AssistantEntity,
  'assistant_prompt' | 'assistant_start_instruction'
>;

/** A webhook outcome once the prompt is rendered: the result and the log entry both come from it. */
export interface SettledOutcome {
  outcome: StrategyWebhookOutcome;
  templates: RenderedAssistantTemplates;
  fallback_used: boolean;
}

/** What the rendering used, in the words of a `prompt_too_large` message. */
export type RenderedFrom = 'the context' | 'the fallback context' | 'the call values';

/** Why the rendered templates were cut: which template passed `MAX_RENDERED_PROMPT_BYTES`, with what. */
export function tooLongMessage(
  templates: RenderedAssistantTemplates,
  what: RenderedFrom,
  maxPromptBytes: number,
): string {
  const verb = what === 'the call values' ? 'make' : 'makes';
  return `${what} ${verb} ${templates.exceeded.join(' and ')} longer than MAX_RENDERED_PROMPT_BYTES (${maxPromptBytes} bytes)`;
}

/**
 * What a webhook outcome comes to once the prompt is rendered: the customer's context is used
 * only if the prompt and start instruction it renders fit in `MAX_RENDERED_PROMPT_BYTES`;
 * otherwise the lookup fails (`prompt_too_large`) and renders like any failure, with `fallback`
 * when there is one. A fallback that does not fit either is cut at the limit.
 */
export function settleOutcome(
  outcome: StrategyWebhookOutcome,
  { assistant, call }: { assistant: RenderableAssistant | null; call: CallVariables },
  fallback: Record<string, unknown> | null,
  maxPromptBytes: number,
): SettledOutcome {
  if (outcome.ok) {
    const templates = renderAssistantTemplates(
      assistant,
      { context: outcome.context, call },
      maxPromptBytes,
    );
    if (templates.exceeded.length === 0) return { outcome, templates, fallback_used: false };
    outcome = {
      ok: false,
      kind: 'prompt_too_large',
      message: `${tooLongMessage(templates, 'the context', maxPromptBytes)}; the context was not used`,
      status_code: outcome.status_code,
      latency_ms: outcome.latency_ms,
    };
  }
  const templates = renderAssistantTemplates(
    assistant,
    { context: fallback, call },
    maxPromptBytes,
  );
  if (templates.exceeded.length > 0)
    outcome = {
      ...outcome,
      message: `${outcome.message}; ${tooLongMessage(templates, fallback ? 'the fallback context' : 'the call values', maxPromptBytes)}, the text is cut there`,
    };
  return { outcome, templates, fallback_used: fallback !== null };
}

/**
 * `settleOutcome` for one lookup, remembered for the last outcome it was given: the client span's
 * `error.type` and the entry come from one rendering.
 */
export function settlerOf(
  route: { assistant: RenderableAssistant | null; call: CallVariables },
  fallback: Record<string, unknown> | null,
  maxPromptBytes: number,
): (outcome: StrategyWebhookOutcome) => SettledOutcome {
  let last: { outcome: StrategyWebhookOutcome; settled: SettledOutcome } | undefined;
  return (outcome) => {
    if (last?.outcome !== outcome)
      last = { outcome, settled: settleOutcome(outcome, route, fallback, maxPromptBytes) };
    return last.settled;
  };
}

// Log.

/** The `inbound_context_lookup` activity-log entry: the same outcome the result reports. */
export function toLookupLogEntry(
  route: Pick<LookupRoute, 'room_name' | 'base' | 'version' | 'variant' | 'strategy'> & {
    mapping?: Pick<LookupRoute['mapping'], 'inbound_id' | 'guardrail'>;
  },
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
      // A guarded split's call is counted for its variant (the guardrail reads the entry).
      ...(route.variant !== null &&
        route.mapping?.guardrail && { inbound_id: route.mapping.inbound_id, guardrail: true }),
    },
    outcome,
    fallback_used,
  );
}

// Result.

/** A lookup that failed before it knew its mapping or assistant: nothing rendered, nothing logged. */
export function errorResult(f: LookupFailure): InboundContextLookupResult {
  return {
    status: 'error',
    assistant_id: null,
    assistant_name: null,
    assistant_version: null,
    variant: null,
    inbound_id: null,
    strategy_id: null,
    context: null,
    fallback_used: false,
    prompt: null,
    start_instruction: null,
    latency_ms: f.latency_ms,
    error: `${f.kind}: ${f.message}`,
    error_class: classifyFailure(f.kind),
    log_id: null,
  };
}

/** No mapping for the job's `inbound_id` (or `inbound_number`). */
export function mappingNotFoundResult(
  data: InboundContextLookupJobData,
): InboundContextLookupResult {
  const what = data.inbound_id
    ? `inbound_id ${data.inbound_id}`
    : `inbound_number ${data.inbound_number ?? ''}`;
  return errorResult(lookupFailure('mapping_not_found', `no inbound mapping for ${what}`));
}

/**
 * A mapping without a strategy: the prompt rendered with the call's values only, no webhook call
 * and no log entry (`skipped`; an error when the call values alone pass the limit).
 */
export function withoutStrategyResult(
  route: Pick<LookupRoute, 'base' | 'call'> & { assistant: RenderableAssistant | null },
  maxPromptBytes: number,
): InboundContextLookupResult {
  const { assistant, base, call } = route;
  if (!assistant)
    return {
      ...errorResult(lookupFailure('assistant_not_found', 'the inbound mapping has no assistant')),
      ...base,
    };
  const templates = renderAssistantTemplates(assistant, { context: null, call }, maxPromptBytes);
  const tooLong = templates.exceeded.length > 0;
  return {
    ...base,
    status: tooLong ? 'error' : 'skipped',
    context: null,
    prompt: templates.prompt,
    start_instruction: templates.start_instruction,
    fallback_used: false,
    latency_ms: 0,
    error: tooLong
      ? `prompt_too_large: ${tooLongMessage(templates, 'the call values', maxPromptBytes)}; the text is cut there`
      : null,
    error_class: tooLong ? classifyFailure('prompt_too_large') : null,
    log_id: null,
  };
}

/** A lookup that went through its strategy (called or not): what the call worker starts the call with. */
export function toLookupResult(
  base: LookupResultBase,
  { outcome, templates, fallback_used }: SettledOutcome,
  fallbackContext: Record<string, unknown> | null,
  log_id: string | null,
): InboundContextLookupResult {
  return {
    ...base,
    status: outcome.ok ? 'success' : 'error',
    context: outcome.ok ? outcome.context : fallback_used ? fallbackContext : null,
    prompt: templates.prompt,
    start_instruction: templates.start_instruction,
    fallback_used,
    latency_ms: outcome.latency_ms,
    error: outcome.ok ? null : `${outcome.kind}: ${outcome.message}`,
    error_class: outcome.ok ? null : classifyFailure(outcome.kind, outcome.status_code),
    log_id,
  };
}
