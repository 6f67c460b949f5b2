import type { AssistantEntity } from '../../assistant/assistant.entity';
import {
  type CallVariables,
  type RenderedAssistantTemplates,
  renderAssistantTemplates,
} from '../../assistant/prompt-render';
import type { StrategyWebhookOutcome } from '../strategy-webhook';

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
