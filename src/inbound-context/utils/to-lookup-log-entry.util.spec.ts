import type { InboundMappingEntity } from '../inbound-mapping.entity';
import type { StrategyWebhookOutcome } from '../strategy-webhook';
import type { LookupLogInput } from './to-lookup-log-entry.util';
import { toLookupLogEntry } from './to-lookup-log-entry.util';

const templates = { prompt: 'p', start_instruction: null, missing: [], exceeded: [] };
const input = (outcome: StrategyWebhookOutcome, fallback_used = false): LookupLogInput => ({
  route: {
    mapping: { user_id: 'u-1' } as InboundMappingEntity,
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
    strategyId: 's-1',
  },
  room_name: 'room-1',
  config: {
    url: 'https://user:pw@crm.example.com/context',
    headers: { Authorization: 'Bearer secret-token' },
    timeout_seconds: 2,
    fallback_context: null,
  },
  payload: { room_name: 'room-1' },
  settled: { outcome, templates, fallback_used },
  trace_id: 'trace-1',
});

describe('toLookupLogEntry', () => {
  it('logs a success with the context keys, the request redacted', () => {
    const entry = toLookupLogEntry(
      input({ ok: true, context: { b: 1, a: 2 }, status_code: 200, latency_ms: 9 }),
    );
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
    const entry = toLookupLogEntry(
      input({ ok: false, kind: 'timeout', message: 'no answer in 2 s', latency_ms: 2000 }, true),
    );
    expect(entry).toMatchObject({
      status: 'error',
      message:
        'Inbound context lookup failed (timeout): no answer in 2 s; rendered with the fallback context',
      error_class: 'timeout',
      response_data: { error: 'timeout', message: 'no answer in 2 s', fallback_used: true },
    });
  });
});
