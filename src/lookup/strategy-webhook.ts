import type { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { OutboundHttpResponse, OutboundHttpResult } from '../common/http/outbound-http.types';
import { type OutboundFailure, describeOutboundOutcome } from '../common/http/outbound-outcome';
import { classifyFailure } from '../contracts/error-class';
import type { InboundContextLookupErrorKind } from '../contracts/inbound-context-lookup.contract';
import type { StrategyConfig } from '../inbound-context/utils/read-strategy-config.util';

export type StrategyWebhookOutcome =
  | { ok: true; context: Record<string, unknown>; status_code: number; latency_ms: number }
  | {
      ok: false;
      kind: InboundContextLookupErrorKind;
      message: string;
      status_code?: number;
      latency_ms: number;
    };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** How one strategy webhook request is sent, besides its URL, headers and payload. */
export interface StrategyWebhookSend {
  signingSecrets: readonly string[];
  /** `MAX_CONTEXT_RESPONSE_BYTES`: the body is read no further; a larger one is an invalid response. */
  maxResponseBytes: number;
  /** W3C `traceparent` the request carries. */
  traceparent?: string;
  /** `webhook-id` to sign with: a lookup's job derives it, so a redelivery sends the same one. */
  webhookId?: string;
  /**
   * What the caller makes of the judged answer (the lookup: whether the prompt it renders fits),
   * so the client span's `error.type` is the error class the entry records.
   */
  settle?: (outcome: StrategyWebhookOutcome) => StrategyWebhookOutcome;
}

/**
 * Calls a strategy's webhook and judges the answer: a 2xx JSON object whose `context` is an
 * object. Every other outcome is a failure with a kind; nothing here throws.
 */
export async function callStrategyWebhook(
  http: OutboundHttpClient,
  config: StrategyConfig & { url: string },
  payload: Record<string, unknown>,
  send: StrategyWebhookSend,
): Promise<StrategyWebhookOutcome> {
  const { signingSecrets, maxResponseBytes, traceparent, webhookId, settle } = send;
  // Judged once, for the span too: its error.type is the entry's error_class, a 2xx without a
  // usable `context` included.
  let judged: StrategyWebhookOutcome | undefined;
  const judge = (result: OutboundHttpResult) =>
    (judged ??= judgeStrategyResult(result, maxResponseBytes));
  const result = await http.postJson({
    url: config.url,
    headers: config.headers,
    body: payload,
    timeoutMs: Math.round(config.timeout_seconds * 1000),
    signingSecrets,
    maxResponseBytes,
    traceparent,
    webhookId,
    errorClassOf: (answered) => {
      const outcome = settle ? settle(judge(answered)) : judge(answered);
      return outcome.ok ? null : classifyFailure(outcome.kind, outcome.status_code);
    },
  });
  return judge(result);
}

/**
 * What a strategy endpoint's answer (or its absence) comes to: the one judgement of a lookup, a
 * dry run and an assistant check's mocked answer.
 */
export function judgeStrategyResult(
  result: OutboundHttpResult,
  maxResponseBytes: number,
): StrategyWebhookOutcome {
  const described = describeOutboundOutcome(result);
  if (!described.ok) return transportFailure(described, maxResponseBytes);
  return judgeAnswer(described.response);
}

/** No usable answer: the call failed, timed out, was refused, or answered more than may be read. */
function transportFailure(
  described: OutboundFailure,
  maxResponseBytes: number,
): StrategyWebhookOutcome {
  if (described.kind === 'too_large')
    return {
      ok: false,
      kind: 'invalid_response',
      message: `response body larger than MAX_CONTEXT_RESPONSE_BYTES (${maxResponseBytes} bytes); not read further`,
      latency_ms: described.latency_ms,
    };
  const { kind, code, message, status_code, latency_ms } = described;
  return {
    ok: false,
    kind,
    message: code ? `${code}: ${message}` : message,
    ...(status_code !== null && { status_code }),
    latency_ms,
  };
}

/** A 2xx answer judged: a JSON object whose `context` is an object, else a failure naming why. */
function judgeAnswer(response: OutboundHttpResponse): StrategyWebhookOutcome {
  const base = { status_code: response.status, latency_ms: response.latencyMs };
  if (!response.json.ok)
    return {
      ok: false,
      kind: 'invalid_json',
      message: `response is not valid JSON (${response.json.error})`,
      ...base,
    };
  const body = response.json.value;
  if (!isPlainObject(body))
    return {
      ok: false,
      kind: 'invalid_response',
      message: 'response is not a JSON object',
      ...base,
    };
  if (!('context' in body))
    return {
      ok: false,
      kind: 'invalid_response',
      message: 'response has no "context" field',
      ...base,
    };
  if (!isPlainObject(body.context)) {
    return {
      ok: false,
      kind: 'invalid_response',
      message: '"context" is not a JSON object',
      ...base,
    };
  }
  return { ok: true, context: body.context, ...base };
}
