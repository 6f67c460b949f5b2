import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import type { AssistantEntity } from '../../assistant/assistant.entity';
import { type CallVariables, renderAssistantTemplates } from '../../assistant/prompt-render';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import { decisionOf, type PolicyEvaluation } from '../../inbound-policy/evaluate-policy';
import { policyAssistantKey, type ResolvedMapping } from '../../inbound-context/lookup.repository';
import { callVariables, lookupFailure } from './lookup-plan.util';
import { errorResult } from './lookup-outcome.util';

/*
 * A lookup whose number's policy does not let the call through to its assistant (closed, denied,
 * full): answered here without the strategy. No I/O.
 */

/** What `{{call.*}}` adds for a number with a policy. */
export function policyCallValues(evaluation: PolicyEvaluation): CallVariables {
  return {
    local_time: evaluation.local_time,
    local_date: evaluation.local_date,
    is_open: String(evaluation.is_open),
    next_open: evaluation.next_open,
  };
}

/** The assistant an `assistant` action hands the call to: its version, or the working copy; null when gone. */
function actionAssistant(
  found: ResolvedMapping,
  evaluation: PolicyEvaluation,
): AssistantEntity | null {
  const named = evaluation.assistant;
  if (!named) return null;
  return (
    found.policyAssistants?.get(policyAssistantKey(named.assistant_id, named.assistant_version)) ??
    null
  );
}

/**
 * The result of a call the policy answers: `reject` (and `denied`) with the message and no prompt;
 * `assistant` with that assistant's prompt rendered from the call values.
 */
export function policyResult(
  found: ResolvedMapping,
  data: InboundContextLookupJobData,
  evaluation: PolicyEvaluation,
  maxPromptBytes: number,
): InboundContextLookupResult {
  const { mapping } = found;
  const policy = decisionOf(evaluation);
  const base = {
    inbound_id: mapping.inbound_id,
    strategy_id: null,
    variant: null,
    policy,
    log_id: null,
  };
  if (evaluation.action !== 'assistant')
    return {
      ...base,
      status: 'success',
      assistant_id: mapping.assistant_id,
      assistant_name: null,
      assistant_version: null,
      context: null,
      fallback_used: false,
      prompt: null,
      start_instruction: null,
      latency_ms: 0,
      error: null,
      error_class: null,
    };
  const assistant = actionAssistant(found, evaluation);
  const version = evaluation.assistant?.assistant_version ?? null;
  if (!assistant)
    return {
      ...errorResult(
        lookupFailure(
          'assistant_not_found',
          `the policy's ${evaluation.outcome} assistant no longer exists`,
        ),
      ),
      ...base,
      assistant_id: evaluation.assistant?.assistant_id ?? null,
    };
  const call = { ...callVariables(data, mapping), ...policyCallValues(evaluation) };
  const templates = renderAssistantTemplates(assistant, { context: null, call }, maxPromptBytes);
  return {
    ...base,
    status: 'success',
    assistant_id: assistant.assistant_id,
    assistant_name: assistant.assistant_name,
    assistant_version: version,
    context: null,
    fallback_used: false,
    prompt: templates.prompt,
    start_instruction: templates.start_instruction,
    latency_ms: 0,
    error: null,
    error_class: null,
  };
}

/** The activity-log entry of a call the policy answered. */
export function policyLogEntry(
  found: ResolvedMapping,
  data: InboundContextLookupJobData,
  result: InboundContextLookupResult,
): ActivityLogInput {
  const policy = result.policy!;
  return {
    user_id: found.mapping.user_id,
    log_type: 'inbound_context_lookup',
    status: result.status === 'error' ? 'error' : 'success',
    assistant_id: result.assistant_id,
    room_name: data.room_name,
    message: `Inbound policy: ${policy.outcome}, ${policy.action}${result.error ? ` (${result.error})` : ''}; the strategy was not called`,
    request_data: {
      inbound_id: found.mapping.inbound_id,
      caller_number: data.caller_number ?? null,
    },
    response_data: { policy },
    latency_ms: 0,
    error_class: result.error_class,
  };
}
