import type { AssistantEntity } from '../assistant/assistant.entity';
import type { CallVariables } from '../assistant/prompt-render';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS } from '../contracts/queues';
import type { CheckStrategy } from '../inbound-context/check-strategies';
import {
  judgeStrategyResult,
  type StrategyWebhookOutcome,
} from '../lookup/strategy-webhook';
import { settleOutcome, type SettledOutcome } from '../lookup/utils/lookup-outcome.util';
import {
  callVariables,
  decideLookup,
  toStrategyRequest,
  type WebhookCallConfig,
} from '../lookup/utils/lookup-plan.util';
import { renderAssistantTemplates } from '../assistant/prompt-render';
import type { CheckedCase, TestCaseContextMock, TestCaseCall } from './rollout.types';

/** What a check needs to play a lookup: the limits the lookup job runs with. */
export interface LookupLimits {
  maxPromptBytes: number;
  maxContextResponseBytes: number;
}

export type PlayedLookup = Omit<CheckedCase['result'], 'tool_requests'>;

/**
 * A lookup of the test case's call played against its mock, through the lookup's own plan
 * (`toStrategyRequest`, `decideLookup`: the strategy's timeout within the job's deadline), its
 * judgement of the answer (`judgeStrategyResult`) and its rendering with the fallback
 * (`settleOutcome`). Nothing is sent: the mock stands for the endpoint's answer, and a mock
 * slower than the time the lookup would wait is the timeout the lookup would see.
 */
export function playLookup(
  assistant: AssistantEntity,
  call: TestCaseCall & { room_name: string },
  mock: TestCaseContextMock | null,
  found: CheckStrategy | null,
  limits: LookupLimits,
  now = Date.now(),
): PlayedLookup {
  const values: CallVariables = {
    ...(found
      ? callVariables(call, found.mapping)
      : {
          caller_number: call.caller_number ?? null,
          inbound_number: call.inbound_number ?? null,
          room_name: call.room_name,
          call_type: 'inbound',
        }),
    ...call.variables,
  };
  const strategyId = found?.mapping.inbound_context_strategy_id;
  if (!found || !strategyId || !mock) {
    const templates = renderAssistantTemplates(
      assistant,
      { context: null, call: values },
      limits.maxPromptBytes,
    );
    return { status: 'skipped', fallback_used: false, error: null, ...templatesOf(templates) };
  }
  const route = { mapping: found.mapping, assistant, strategy: found.strategy };
  const request = toStrategyRequest(call, route, strategyId);
  const deadline = now + INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS.timeout;
  const decision = decideLookup(route, request, deadline, now);
  const outcome =
    'call' in decision
      ? judgeStrategyResult(mockedAnswer(mock, decision.call), limits.maxContextResponseBytes)
      : decision.outcome;
  const settled = settleOutcome(
    outcome,
    { assistant, call: values },
    request.config.fallback_context,
    limits.maxPromptBytes,
  );
  return {
    status: settled.outcome.ok ? 'success' : 'error',
    fallback_used: settled.fallback_used,
    error: errorOf(settled.outcome),
    ...templatesOf(settled.templates),
  };
}

/** The mock as the HTTP client would have returned it: a timeout when it answers too late. */
function mockedAnswer(mock: TestCaseContextMock, call: WebhookCallConfig): OutboundHttpResult {
  const timeoutMs = Math.round(call.timeout_seconds * 1000);
  const latency = mock.latency_ms ?? 0;
  if (latency > timeoutMs)
    return {
      kind: 'timeout',
      message: `no answer within ${timeoutMs} ms (the mock answers in ${latency} ms)`,
      latencyMs: timeoutMs,
    };
  const text = JSON.stringify(mock.body) ?? '';
  return {
    kind: 'response',
    status: mock.status,
    ok: mock.status >= 200 && mock.status < 300,
    contentType: 'application/json',
    text,
    json: { ok: true, value: mock.body },
    latencyMs: latency,
  };
}

function errorOf(outcome: StrategyWebhookOutcome): string | null {
  return outcome.ok ? null : `${outcome.kind}: ${outcome.message}`;
}

function templatesOf(templates: SettledOutcome['templates']) {
  return {
    prompt: templates.prompt,
    start_instruction: templates.start_instruction,
    missing: templates.missing,
  };
}
