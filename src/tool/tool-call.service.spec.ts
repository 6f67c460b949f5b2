import type { OutboundHttpResponse } from '../common/http/outbound-http.types';
import { resolveTemplate } from '../secret/secret-reference-checks';
import { callContextHeaders, toolCallWebhookId } from './tool-call-request';
import { TOOL_RESULT_MAX_CHARS, responseResult, toolResult } from './tool-result';

function response(
  status: number,
  text: string,
  contentType: string | null = 'application/json',
): OutboundHttpResponse {
  let json: OutboundHttpResponse['json'];
  try {
    json = { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    json = { ok: false, error: 'invalid' };
  }
  return {
    kind: 'response',
    status,
    ok: status >= 200 && status < 300,
    contentType,
    text,
    json,
    latencyMs: 12,
  };
}

describe('tool call results', () => {
  it('returns a JSON answer parsed', () => {
    expect(toolResult('t', response(200, '{"eta":"5 min"}'), 10)).toEqual({
      status: 'success',
      result: { eta: '5 min' },
      latency_ms: 12,
      error: null,
      error_class: null,
    });
  });

  it('parses JSON without a content type, but keeps text/plain as text', () => {
    expect(responseResult(response(200, '[1,2]', null))).toEqual([1, 2]);
    expect(responseResult(response(200, '42', 'text/plain; charset=utf-8'))).toBe('42');
    expect(responseResult(response(200, 'open until 6pm', 'text/plain'))).toBe('open until 6pm');
    expect(responseResult(response(204, '', null))).toBeNull();
  });

  it('caps a large answer as text', () => {
    const big = JSON.stringify({ data: 'x'.repeat(TOOL_RESULT_MAX_CHARS) });
    const result = responseResult(response(200, big));
    expect(typeof result).toBe('string');
    expect(result).toBe(
      `${big.slice(0, TOOL_RESULT_MAX_CHARS)}…[truncated, ${big.length} characters in total]`,
    );
  });

  it.each<[OutboundHttpResponse | Parameters<typeof toolResult>[1], string, string]>([
    [
      response(500, '{"error":"db down"}'),
      'Tool "lookup" failed: its webhook answered HTTP 500.',
      'http_5xx',
    ],
    [response(302, ''), 'Tool "lookup" failed: its webhook answered HTTP 302.', 'invalid_response'],
    [response(401, ''), 'Tool "lookup" failed: its webhook answered HTTP 401.', 'auth'],
    [response(404, ''), 'Tool "lookup" failed: its webhook answered HTTP 404.', 'http_4xx'],
    [
      { kind: 'timeout', message: 'x', latencyMs: 3000 },
      'Tool "lookup" failed: its webhook did not answer within 3 s.',
      'timeout',
    ],
    [
      {
        kind: 'network',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
        code: 'ECONNREFUSED',
        latencyMs: 1,
      },
      'Tool "lookup" failed: its webhook could not be reached (connect ECONNREFUSED 127.0.0.1:1).',
      'network',
    ],
    [
      { kind: 'blocked', message: 'x', latencyMs: 1 },
      'Tool "lookup" failed: its webhook URL points to an address that is not allowed.',
      'blocked',
    ],
    [
      { kind: 'too_large', message: 'x', latencyMs: 1 },
      'Tool "lookup" failed: its webhook answered with more than 1048576 bytes.',
      'invalid_response',
    ],
  ])('reports a failure as status error with its class: %j', (outcome, error, error_class) => {
    expect(toolResult('lookup', outcome, 3)).toMatchObject({ status: 'error', error, error_class });
  });

  it('hands the body of an HTTP error to the model too', () => {
    expect(toolResult('lookup', response(404, '{"error":"no such order"}'), 10).result).toEqual({
      error: 'no such order',
    });
  });
});

describe(callContextHeaders.name, () => {
  const data = { tool_id: 't', assistant_id: 'a-1', room_name: 'room 1', tool_call_id: 'call_1' };

  it('adds the call context, replacing tool headers of the same name in any case, after the templates', () => {
    const resolved = resolveTemplate(
      {
        url: 'https://hook.example/x',
        headers: { 'x-call-room-name': 'spoofed', 'X-Tenant': 'acme' },
        callHeaders: callContextHeaders(data),
      },
      new Map(),
    );
    expect(resolved).toMatchObject({
      ok: true,
      headers: {
        'X-Tenant': 'acme',
        'X-Call-Room-Name': 'room 1',
        'X-Call-Assistant-Id': 'a-1',
        'X-Call-Tool-Call-Id': 'call_1',
      },
    });
  });

  it('sends a reference in the call values as text, never its secret', () => {
    const resolved = resolveTemplate(
      {
        url: 'https://hook.example/x',
        headers: { Authorization: 'Bearer {{secret.TOKEN}}' },
        callHeaders: callContextHeaders({
          ...data,
          room_name: '{{secret.TOKEN}}',
          tool_call_id: '{{secret.TOKEN}}',
        }),
      },
      new Map([['TOKEN', { value: 'tok-value', allowed_origins: ['https://hook.example'] }]]),
    );
    expect(resolved).toMatchObject({
      ok: true,
      headers: {
        Authorization: 'Bearer tok-value',
        'X-Call-Room-Name': '{{secret.TOKEN}}',
        'X-Call-Tool-Call-Id': '{{secret.TOKEN}}',
      },
    });
  });

  it('leaves out the tool call id when none is given and percent-encodes non-ASCII values', () => {
    expect(callContextHeaders({ ...data, tool_call_id: undefined, room_name: 'सभा\n' })).toEqual({
      'X-Call-Room-Name': encodeURIComponent('सभा\n'),
      'X-Call-Assistant-Id': 'a-1',
    });
  });
});

describe(toolCallWebhookId.name, () => {
  const data = { tool_id: 't', assistant_id: 'a', room_name: 'r', tool_call_id: 'c' };

  it('is stable for one (assistant, room, tool_call_id) and differs otherwise', () => {
    expect(toolCallWebhookId(data)).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(toolCallWebhookId({ ...data, tool_id: 'other' })).toBe(toolCallWebhookId(data));
    expect(toolCallWebhookId({ ...data, room_name: 'r2' })).not.toBe(toolCallWebhookId(data));
    expect(toolCallWebhookId({ ...data, tool_call_id: undefined })).toBeUndefined();
  });
});
