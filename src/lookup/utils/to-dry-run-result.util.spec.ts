import type { StrategyWebhookOutcome } from '../strategy-webhook';
import { toDryRunResult } from './to-dry-run-result.util';

const config = {
  url: 'https://user:pw@crm.example.com/context',
  headers: { Authorization: 'Bearer secret-token' },
  timeout_seconds: 2,
  fallback_context: { name: 'caller' },
};
const templates = { prompt: 'Hello', start_instruction: null, missing: [], exceeded: [] };
const resultOf = (outcome: StrategyWebhookOutcome, fallback_used = false) =>
  toDryRunResult({
    settled: { outcome, templates, fallback_used },
    assistantId: 'a-1',
    config,
    payload: { dry_run: true },
    secretsUsed: ['CRM_TOKEN'],
  });

describe('toDryRunResult', () => {
  it('answers a success with the sorted context keys and the request redacted', () => {
    const result = resultOf({ ok: true, context: { b: 1, a: 2 }, status_code: 200, latency_ms: 4 });
    expect(result).toEqual({
      status: 'success',
      error: null,
      error_class: null,
      status_code: 200,
      latency_ms: 4,
      context_keys: ['a', 'b'],
      context: { b: 1, a: 2 },
      fallback_used: false,
      assistant_id: 'a-1',
      prompt_preview: 'Hello',
      start_instruction_preview: null,
      secrets_used: ['CRM_TOKEN'],
      request: {
        url: expect.not.stringContaining(':pw@') as string,
        headers: { Authorization: expect.not.stringContaining('secret-token') as string },
        payload: { dry_run: true },
      },
    });
  });

  it('answers a failure with its kind, class and status code, and no context', () => {
    const result = resultOf(
      {
        ok: false,
        kind: 'http_error',
        message: 'webhook answered HTTP 500',
        status_code: 500,
        latency_ms: 8,
      },
      true,
    );
    expect(result).toMatchObject({
      status: 'error',
      error: 'http_error: webhook answered HTTP 500',
      error_class: 'http_5xx',
      status_code: 500,
      context: null,
      context_keys: [],
      fallback_used: true,
    });
    expect(
      resultOf({ ok: false, kind: 'missing_url', message: 'x', latency_ms: 0 }).status_code,
    ).toBeNull();
  });
});
