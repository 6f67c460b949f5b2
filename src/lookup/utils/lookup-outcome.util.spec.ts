import type { RenderedAssistantTemplates } from '../../assistant/prompt-render';
import type { StrategyWebhookOutcome } from '../strategy-webhook';
import {
  errorResult,
  mappingNotFoundResult,
  settleOutcome,
  tooLongMessage,
  toLookupLogEntry,
  toLookupResult,
  withoutStrategyResult,
} from './lookup-outcome.util';
import type { LookupResultBase, StrategyRequest } from './lookup-plan.util';

describe('render', () => {
  const assistant = {
    assistant_prompt: 'Hello {{context.name}}',
    assistant_start_instruction: 'Greet {{call.room_name}}',
  };
  const call = { room_name: 'room-1' };
  const ok = (context: Record<string, unknown>): StrategyWebhookOutcome => ({
    ok: true,
    context,
    status_code: 200,
    latency_ms: 12,
  });
  const down: StrategyWebhookOutcome = {
    ok: false,
    kind: 'http_error',
    message: 'webhook answered HTTP 503',
    status_code: 503,
    latency_ms: 7,
  };

  describe('settleOutcome', () => {
    it('renders a successful context and keeps the outcome', () => {
      const settled = settleOutcome(ok({ name: 'Ada' }), { assistant, call }, { name: 'f' }, 1024);
      expect(settled).toMatchObject({
        outcome: { ok: true },
        fallback_used: false,
        templates: { prompt: 'Hello Ada', start_instruction: 'Greet room-1', exceeded: [] },
      });
    });

    it('renders a failure with the fallback context', () => {
      const settled = settleOutcome(down, { assistant, call }, { name: 'caller' }, 1024);
      expect(settled.outcome).toBe(down);
      expect(settled).toMatchObject({ fallback_used: true, templates: { prompt: 'Hello caller' } });
    });

    it('renders a failure without a fallback with no context', () => {
      const settled = settleOutcome(down, { assistant, call }, null, 1024);
      expect(settled).toMatchObject({ fallback_used: false, templates: { prompt: 'Hello ' } });
    });

    it('turns a context that renders past the limit into prompt_too_large, keeping status and latency', () => {
      const settled = settleOutcome(
        ok({ name: 'n'.repeat(100) }),
        { assistant, call },
        { name: 'f' },
        40,
      );
      expect(settled.outcome).toEqual({
        ok: false,
        kind: 'prompt_too_large',
        message:
          'the context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (40 bytes); the context was not used',
        status_code: 200,
        latency_ms: 12,
      });
      expect(settled).toMatchObject({ fallback_used: true, templates: { prompt: 'Hello f' } });
    });

    it('cuts a fallback that does not fit either, and says so', () => {
      const settled = settleOutcome(down, { assistant, call }, { name: 'f'.repeat(100) }, 40);
      expect(settled.outcome).toMatchObject({
        kind: 'http_error',
        message:
          'webhook answered HTTP 503; the fallback context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (40 bytes), the text is cut there',
      });
      expect(Buffer.byteLength(settled.templates.prompt ?? '')).toBe(40);
    });
  });

  describe('tooLongMessage', () => {
    it('names every template that passed the limit, with the verb agreeing', () => {
      const templates = {
        prompt: '',
        start_instruction: '',
        missing: [],
        exceeded: ['assistant_prompt', 'assistant_start_instruction'] as const,
      };
      expect(
        tooLongMessage({ ...templates, exceeded: [...templates.exceeded] }, 'the call values', 9),
      ).toBe(
        'the call values make assistant_prompt and assistant_start_instruction longer than MAX_RENDERED_PROMPT_BYTES (9 bytes)',
      );
    });
  });
});

describe('toLookupLogEntry', () => {
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

describe('result', () => {
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
      expect(toLookupResult(base, { outcome, templates, fallback_used: false }, null, '7')).toEqual(
        {
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
        },
      );
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
});
