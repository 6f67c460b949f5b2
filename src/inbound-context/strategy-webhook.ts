import type { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { InboundContextLookupErrorKind } from '../contracts/inbound-context-lookup.contract';
import type { StrategyConfig } from './strategy-config';

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
): Promise<StrategyWebhookOutcome> {
  const timeoutMs = Math.round(config.timeout_seconds * 1000);
  const result = await http.postJson({
    url: config.url,
    headers: config.headers,
    body: payload,
    timeoutMs,
    signingSecrets,
  });
  switch (result.kind) {
    case 'timeout':
      return {
        ok: false,
        kind: 'timeout',
        message: `no complete response within ${timeoutMs} ms`,
        latency_ms: result.latencyMs,
      };
    case 'blocked':
      return { ok: false, kind: 'blocked', message: result.message, latency_ms: result.latencyMs };
    case 'too_large':
      return {
        ok: false,
        kind: 'too_large',
        message: result.message,
        latency_ms: result.latencyMs,
      };
    case 'network':
      return {
        ok: false,
        kind: 'network_error',
        message: result.code ? `${result.code}: ${result.message}` : result.message,
        latency_ms: result.latencyMs,
      };
    case 'response':
      break;
  }
  const base = { status_code: result.status, latency_ms: result.latencyMs };
  if (!result.ok)
    return {
      ok: false,
      kind: 'http_error',
      message: `webhook answered HTTP ${result.status}`,
      ...base,
    };
  if (!result.json.ok)
    return {
      ok: false,
      kind: 'invalid_json',
      message: `response is not valid JSON (${result.json.error})`,
      ...base,
    };
  const body = result.json.value;
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
