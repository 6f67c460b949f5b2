import type { StrategyWebhookOutcome } from '../strategy-webhook';
import { settleOutcome, tooLongMessage } from './settle-outcome.util';

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
