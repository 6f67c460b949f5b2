import { renderAssistantTemplates } from '../../assistant/prompt-render';
import { classifyFailure } from '../../contracts/error-class';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import { lookupFailure, type LookupFailure } from './lookup-failure.util';
import type { LookupRoute, LookupResultBase } from './route-lookup.util';
import {
  type RenderableAssistant,
  type SettledOutcome,
  tooLongMessage,
} from './settle-outcome.util';

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
