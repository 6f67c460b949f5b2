import type { OutboundHttpClient } from '../common/http/outbound-http.client';
import type {
  OutboundHttpResponse,
  OutboundHttpResult,
} from '../common/http/outbound-http.types';
import { type OutboundFailure, describeOutboundOutcome } from '../common/http/outbound-outcome';
import type { InboundContextLookupErrorKind } from '../contracts/inbound-context-lookup.contract';
import type { StrategyConfig } from './utils/read-strategy-config.util';

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

/**
 * Calls a strategy's webhook and judges the answer: a 2xx JSON object whose `context` is an
 * object. Every other outcome is a failure with a kind; nothing here throws.
 */
export async function callStrategyWebhook(
  http: OutboundHttpClient,
  config: StrategyConfig & { url: string },
  payload: Record<string, unknown>,
  signingSecrets: readonly string[],
  /** `MAX_CONTEXT_RESPONSE_BYTES`: the body is read no further; a larger one is an invalid response. */
  maxResponseBytes: number,
  /** W3C `traceparent` the request carries. */
  traceparent?: string,
  /** `webhook-id` to sign with: a lookup's job derives it, so a redelivery sends the same one. */
  webhookId?: string,
): Promise<StrategyWebhookOutcome> {
  const timeoutMs = Math.round(config.timeout_seconds * 1000);
  const result = await http.postJson({
    url: config.url,
    headers: config.headers,
    body: payload,
    timeoutMs,
    signingSecrets,
    maxResponseBytes,
    traceparent,
    webhookId,
  });
  return judgeStrategyResult(result, maxResponseBytes);
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
