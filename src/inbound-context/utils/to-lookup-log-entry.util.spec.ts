import type { StrategyWebhookOutcome } from '../strategy-webhook';
import type { StrategyRequest } from './strategy-request.util';
import { toLookupLogEntry } from './to-lookup-log-entry.util';

const route = {
  room_name: 'room-1',
  base: {
    assistant_id: 'a-1',
    assistant_name: 'Support',
    assistant_version: 3,
    variant: 0,
    inbound_id: 'm-1',
    strategy_id: 's-1',
  },
  version: 3,
  variant: 0,
  strategy: null,
};
const request: StrategyRequest = {
  user_id: 'u-1',
  strategy_id: 's-1',
  config: {
    url: 'https://user:pw@crm.example.com/context',
    headers: { Authorization: 'Bearer secret-token' },
    timeout_seconds: 2,
    fallback_context: null,
  },
  payload: { room_name: 'room-1' },
  trace: { trace_id: 'trace-1', flags: '01' },
};
const entryFor = (outcome: StrategyWebhookOutcome, fallback_used = false) =>
  toLookupLogEntry(route, request, { outcome, fallback_used });

describe('toLookupLogEntry', () => {
  it('logs a success with the context keys, the request redacted', () => {
    const entry = entryFor({ ok: true, context: { b: 1, a: 2 }, status_code: 200, latency_ms: 9 });
    expect(entry).toMatchObject({
      user_id: 'u-1',
      log_type: 'inbound_context_lookup',
      status: 'success',
      assistant_id: 'a-1',
      room_name: 'room-1',
      message: 'Inbound context lookup succeeded: HTTP 200, 2 context key(s)',
      latency_ms: 9,
      error_class: null,
      trace_id: 'trace-1',
      request_data: {
        assistant_version: 3,
        variant: 0,
        strategy_id: 's-1',
        strategy_type: 'webhook',
        timeout_seconds: 2,
        headers: { Authorization: '****' },
        payload: { room_name: 'room-1' },
      },
      response_data: { status_code: 200, context_keys: ['a', 'b'], fallback_used: false },
    });
    expect(JSON.stringify(entry)).not.toContain('secret-token');
    expect(JSON.stringify(entry)).not.toContain(':pw@');
  });

  it('logs a failure with its kind, class and whether the fallback was rendered', () => {
    const failed: StrategyWebhookOutcome = {
      ok: false,
      kind: 'timeout',
      message: 'no answer in 2 s',
      latency_ms: 2000,
    };
    expect(entryFor(failed, true)).toMatchObject({
      status: 'error',
      message:
        'Inbound context lookup failed (timeout): no answer in 2 s; rendered with the fallback context',
      error_class: 'timeout',
      response_data: { error: 'timeout', message: 'no answer in 2 s', fallback_used: true },
    });
  });
});
