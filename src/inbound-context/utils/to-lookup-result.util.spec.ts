import type { RenderedAssistantTemplates } from '../../assistant/prompt-render';
import type { StrategyWebhookOutcome } from '../strategy-webhook';
import type { LookupResultBase } from './route-lookup.util';
import {
  errorResult,
  mappingNotFoundResult,
  toLookupResult,
  withoutStrategyResult,
} from './to-lookup-result.util';

const base: LookupResultBase = {
  assistant_id: 'a-1',
  assistant_name: 'Support',
  assistant_version: null,
  variant: 1,
  inbound_id: 'm-1',
  strategy_id: 's-1',
};
const templates: RenderedAssistantTemplates = {
  prompt: 'Hello Ada',
  start_instruction: null,
  missing: [],
  exceeded: [],
};
const failed: StrategyWebhookOutcome = {
  ok: false,
  kind: 'http_error',
  message: 'webhook answered HTTP 401',
  status_code: 401,
  latency_ms: 30,
};

describe('errorResult / mappingNotFoundResult', () => {
  it('answers an error with nothing resolved', () => {
    expect(mappingNotFoundResult({ room_name: 'r', inbound_number: '+1 555' })).toEqual(
      errorResult({
        ok: false,
        kind: 'mapping_not_found',
        message: 'no inbound mapping for inbound_number +1 555',
        latency_ms: 0,
      }),
    );
    expect(mappingNotFoundResult({ room_name: 'r', inbound_id: 'm-9' })).toMatchObject({
      status: 'error',
      assistant_id: null,
      log_id: null,
      error: 'mapping_not_found: no inbound mapping for inbound_id m-9',
      error_class: 'config',
    });
  });
});

describe('withoutStrategyResult', () => {
  const call = { room_name: 'room-1' };

  it('renders with the call values only: skipped, no log', () => {
    const assistant = {
      assistant_prompt: 'In {{call.room_name}}',
      assistant_start_instruction: null,
    };
    expect(withoutStrategyResult({ assistant, base, call }, 1024)).toEqual({
      ...base,
      status: 'skipped',
      context: null,
      prompt: 'In room-1',
      start_instruction: null,
      fallback_used: false,
      latency_ms: 0,
      error: null,
      error_class: null,
      log_id: null,
    });
  });

  it('answers assistant_not_found with the routing fields kept', () => {
    expect(withoutStrategyResult({ assistant: null, base, call }, 1024)).toMatchObject({
      ...base,
      status: 'error',
      error: 'assistant_not_found: the inbound mapping has no assistant',
    });
  });
});

describe('toLookupResult', () => {
  it('answers success with the context', () => {
    const outcome: StrategyWebhookOutcome = {
      ok: true,
      context: { name: 'Ada' },
      status_code: 200,
      latency_ms: 5,
    };
    expect(toLookupResult(base, { outcome, templates, fallback_used: false }, null, '7')).toEqual({
      ...base,
      status: 'success',
      context: { name: 'Ada' },
      prompt: 'Hello Ada',
      start_instruction: null,
      fallback_used: false,
      latency_ms: 5,
      error: null,
      error_class: null,
      log_id: '7',
    });
  });

  it('answers a failure with the fallback context only when it was used', () => {
    const fallback = { name: 'caller' };
    const used = toLookupResult(
      base,
      { outcome: failed, templates, fallback_used: true },
      fallback,
      '8',
    );
    expect(used).toMatchObject({
      status: 'error',
      context: fallback,
      error: 'http_error: webhook answered HTTP 401',
      error_class: 'auth',
      latency_ms: 30,
    });
    const unused = toLookupResult(
      base,
      { outcome: failed, templates, fallback_used: false },
      fallback,
      '8',
    );
    expect(unused.context).toBeNull();
  });
});
