import type { OutboundHttpResponse } from '../common/http/outbound-http.types';
import { toolCallDataProblem } from './tool-call.processor';
import { TOOL_RESULT_MAX_CHARS, responseResult, toolResult } from './tool-call.service';

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

  it.each<[OutboundHttpResponse | Parameters<typeof toolResult>[1], string]>([
    [response(500, '{"error":"db down"}'), 'Tool "lookup" failed: its webhook answered HTTP 500.'],
    [response(302, ''), 'Tool "lookup" failed: its webhook answered HTTP 302.'],
    [
      { kind: 'timeout', message: 'x', latencyMs: 3000 },
      'Tool "lookup" failed: its webhook did not answer within 3 s.',
    ],
    [
      {
        kind: 'network',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
        code: 'ECONNREFUSED',
        latencyMs: 1,
      },
      'Tool "lookup" failed: its webhook could not be reached (connect ECONNREFUSED 127.0.0.1:1).',
    ],
    [
      { kind: 'blocked', message: 'x', latencyMs: 1 },
      'Tool "lookup" failed: its webhook URL points to an address that is not allowed.',
    ],
    [
      { kind: 'too_large', message: 'x', latencyMs: 1 },
      'Tool "lookup" failed: its webhook answered with more than 1048576 bytes.',
    ],
  ])('reports a failure as status error: %j', (outcome, error) => {
    expect(toolResult('lookup', outcome, 3)).toMatchObject({ status: 'error', error });
  });

  it('hands the body of an HTTP error to the model too', () => {
    expect(toolResult('lookup', response(404, '{"error":"no such order"}'), 10).result).toEqual({
      error: 'no such order',
    });
  });
});

describe('toolCallDataProblem', () => {
  it.each<[unknown, string | null]>([
    [{ tool_id: 't', assistant_id: 'a', room_name: 'r', arguments: {} }, null],
    [{ tool_id: 't', assistant_id: 'a', room_name: 'r' }, null],
    [null, 'job data must be an object'],
    [[], 'job data must be an object'],
    [{ assistant_id: 'a', room_name: 'r' }, 'tool_id must be a non-empty string'],
    [{ tool_id: 't', assistant_id: 5, room_name: 'r' }, 'assistant_id must be a non-empty string'],
    [{ tool_id: 't', assistant_id: 'a', room_name: ' ' }, 'room_name must be a non-empty string'],
    [
      { tool_id: 't'.repeat(256), assistant_id: 'a', room_name: 'r' },
      'tool_id must be at most 255 characters',
    ],
  ])('%j → %j', (data, problem) => {
    expect(toolCallDataProblem(data)).toBe(problem);
  });
});
