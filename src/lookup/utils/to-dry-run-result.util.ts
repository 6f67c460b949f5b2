import { redactHeaders } from '../../common/secrets/masking';
import { redactUrl } from '../../common/secrets/redaction';
import { classifyFailure } from '../../contracts/error-class';
import type { TestStrategyResultDto } from '../dto/test-strategy.dto';
import type { StrategyConfig } from '../../inbound-context/utils/read-strategy-config.util';
import type { SettledOutcome } from './lookup-outcome.util';

/** What `POST /inbound_context_strategy/test/:id` answers: the outcome, previews and the request as sent (redacted). */
export function toDryRunResult(input: {
  settled: SettledOutcome;
  assistantId: string | null;
  config: StrategyConfig;
  payload: Record<string, unknown>;
  secretsUsed: string[];
}): TestStrategyResultDto {
  const { outcome, templates, fallback_used } = input.settled;
  const context = outcome.ok ? outcome.context : null;
  return {
    status: outcome.ok ? 'success' : 'error',
    error: outcome.ok ? null : `${outcome.kind}: ${outcome.message}`,
    error_class: outcome.ok ? null : classifyFailure(outcome.kind, outcome.status_code),
    status_code: outcome.ok ? outcome.status_code : (outcome.status_code ?? null),
    latency_ms: outcome.latency_ms,
    context_keys: context ? Object.keys(context).sort() : [],
    context,
    fallback_used,
    assistant_id: input.assistantId,
    prompt_preview: templates.prompt,
    start_instruction_preview: templates.start_instruction,
    secrets_used: input.secretsUsed,
    request: {
      url: redactUrl(input.config.url) ?? '',
      headers: redactHeaders(input.config.headers),
      payload: input.payload,
    },
  };
}
