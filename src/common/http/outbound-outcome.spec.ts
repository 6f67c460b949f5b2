import type { OutboundHttpResult } from './outbound-http.types';
import { describeOutboundOutcome } from './outbound-outcome';

const response = (status: number): OutboundHttpResult => ({
  kind: 'response',
  status,
  ok: status >= 200 && status < 300,
  contentType: null,
  text: '',
  json: { ok: false, error: 'empty body' },
  latencyMs: 7,
});

describe(describeOutboundOutcome.name, () => {
  it('succeeds on a 2xx answer and keeps the answer', () => {
    const result = response(204);
    expect(describeOutboundOutcome(result)).toEqual({
      ok: true,
      status_code: 204,
      latency_ms: 7,
      response: result,
    });
  });

  it.each([302, 404, 503])('calls answer %i an http_error with its status', (status) => {
    expect(describeOutboundOutcome(response(status))).toEqual({
      ok: false,
      kind: 'http_error',
      status_code: status,
      message: `webhook answered HTTP ${status}`,
      latency_ms: 7,
    });
  });

  it.each([
    ['timeout', 'timeout'],
    ['blocked', 'blocked'],
    ['too_large', 'too_large'],
    ['network', 'network_error'],
  ] as const)('names a %s failure %s, with the client message and no status', (kind, named) => {
    expect(describeOutboundOutcome({ kind, message: 'what happened', latencyMs: 3 })).toEqual({
      ok: false,
      kind: named,
      status_code: null,
      message: 'what happened',
      latency_ms: 3,
    });
  });

  it('keeps the error code of a network failure', () => {
    expect(
      describeOutboundOutcome({
        kind: 'network',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
        code: 'ECONNREFUSED',
        latencyMs: 1,
      }),
    ).toMatchObject({ kind: 'network_error', code: 'ECONNREFUSED' });
  });
});
