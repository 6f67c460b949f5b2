import type { ToolCallResult } from '../contracts/tool-call.contract';
import { classifyFailure, type ErrorClass } from '../contracts/error-class';
import { describeOutboundOutcome, type OutboundFailure } from '../common/http/outbound-outcome';
import type { OutboundHttpResponse, OutboundHttpResult } from '../common/http/outbound-http.types';
import { capText } from '../common/secrets/redaction';

/** A tool result handed back to the model is cut at this many characters: it lands in its context. */
export const TOOL_RESULT_MAX_CHARS = 16_384;
/** A webhook answer larger than this is refused outright instead of being read. */
export const TOOL_RESPONSE_MAX_BYTES = 1024 * 1024;

/** A result before it is told which version ran. */
export type ToolCallOutcome = Omit<ToolCallResult, 'assistant_version'>;
/** The result of a request that was sent, or a call refused before it: never cancelled. */
export type RunOutcome = ToolCallOutcome & { status: 'success' | 'error' };

/** A call that failed before or without an answer from the webhook. */
export function toolFailure(error: string, latencyMs: number, errorClass: ErrorClass): RunOutcome {
  return { status: 'error', result: null, latency_ms: latencyMs, error, error_class: errorClass };
}

/**
 * The webhook's answer as the model gets it: JSON parsed (unless the server says it is plain text
 * or HTML), anything else as text; either cut at `TOOL_RESULT_MAX_CHARS`. An empty body is null.
 */
export function responseResult(response: OutboundHttpResponse): unknown {
  if (response.text === '') return null;
  const declaredText = response.contentType !== null && /^text\//i.test(response.contentType);
  if (response.json.ok && !declaredText && response.text.length <= TOOL_RESULT_MAX_CHARS)
    return response.json.value;
  return capText(response.text, TOOL_RESULT_MAX_CHARS);
}

export function toolResult(
  toolName: string,
  outcome: OutboundHttpResult,
  timeoutSeconds: number,
): RunOutcome {
  const latency = outcome.latencyMs;
  const described = describeOutboundOutcome(outcome);
  const result = outcome.kind === 'response' ? responseResult(outcome) : null;
  if (described.ok)
    return { status: 'success', result, latency_ms: latency, error: null, error_class: null };
  return {
    status: 'error',
    result,
    latency_ms: latency,
    error: `Tool "${toolName}" failed: ${failureReason(described, timeoutSeconds)}.`,
    error_class: classifyFailure(described.kind, described.status_code),
  };
}

/** A failed webhook call in the words the model reads. */
function failureReason(failure: OutboundFailure, timeoutSeconds: number): string {
  switch (failure.kind) {
    case 'http_error':
      return `its webhook answered HTTP ${failure.status_code}`;
    case 'timeout':
      return `its webhook did not answer within ${timeoutSeconds} s`;
    case 'too_large':
      return `its webhook answered with more than ${TOOL_RESPONSE_MAX_BYTES} bytes`;
    case 'blocked':
      return 'its webhook URL points to an address that is not allowed';
    case 'network_error':
      return `its webhook could not be reached (${failure.message})`;
  }
}
