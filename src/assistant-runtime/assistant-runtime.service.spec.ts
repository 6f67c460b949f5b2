import type { EffectiveAssistantConfig } from '../assistant/assistant.types';
import { NO_SIDE_EFFECT } from '../tool/utils/apply-tool-defaults.util';
import { AssistantRuntimeService, buildRuntimeView } from './assistant-runtime.service';

const base: EffectiveAssistantConfig = {
  assistant_id: 'a-1',
  user_id: 'u-1',
  assistant_name: 'Support',
  assistant_description: 'd',
  assistant_prompt: 'p',
  assistant_llm_mode: 'pipeline',
  assistant_start_instruction: null,
  assistant_interaction_config: {
    speaks_first: true,
    filler_words: true,
    silence_reprompts: false,
    silence_reprompt_interval: 10,
    silence_max_reprompts: 2,
  },
  assistant_end_call_enabled: false,
  assistant_end_call_trigger_phrase: null,
  assistant_end_call_agent_message: null,
  assistant_end_call_url: null,
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'v', api_key: 'tts-secret-key' },
  assistant_llm_config: null,
  created_at: new Date('2030-01-01T00:00:00Z'),
  updated_at: new Date('2030-01-02T00:00:00Z'),
};

const lookup = {
  tool_id: 't-1',
  tool_name: 'lookup',
  tool_description: 'Looks up.',
  tool_parameters: [{ name: 'id', type: 'string' as const, required: true }],
  tool_execution_type: 'webhook' as const,
  tool_execution_config: {
    url: 'https://a.example',
    timeout: 10,
    headers: { Authorization: 'secret-h' },
  },
  ...NO_SIDE_EFFECT,
};

describe(AssistantRuntimeService.name, () => {
  it('keeps provider keys in clear, fills the realtime model defaults and lists tools with their ids', () => {
    const view = buildRuntimeView(base, [lookup]);
    expect(view.assistant_tts_config).toEqual({ voice_id: 'v', api_key: 'tts-secret-key' });
    expect(view.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'gemini-3.1-flash-live-preview',
      voice: 'Puck',
    });
    expect(view.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Looks up.',
          parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
        side_effect: 'none',
        defer_until_eot: false,
      },
    ]);
    expect(view.tool_bindings).toEqual([
      { name: 'lookup', tool_id: 't-1', tool_execution_type: 'webhook' },
    ]);
    expect(JSON.stringify(view)).not.toContain('secret-h');
    expect(view).not.toHaveProperty('user_id');
  });

  it('drops the TTS provider in realtime mode and keeps the realtime key', () => {
    const view = buildRuntimeView(
      {
        ...base,
        assistant_llm_mode: 'realtime',
        assistant_interaction_config: { ...base.assistant_interaction_config, filler_words: false },
        assistant_llm_config: {
          provider: 'gemini',
          model: 'm',
          voice: 'Kore',
          api_key: 'llm-secret',
        },
      },
      [],
    );
    expect(view.assistant_tts_model).toBeNull();
    expect(view.assistant_tts_config).toBeNull();
    expect(view.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'm',
      voice: 'Kore',
      api_key: 'llm-secret',
    });
    expect(view.tools).toEqual([]);
  });

  it('appends end_call after the tools when enabled', () => {
    const view = buildRuntimeView(
      { ...base, assistant_end_call_enabled: true, assistant_end_call_trigger_phrase: 'bye now' },
      [lookup],
    );
    expect(view.tools.map((t) => t.function.name)).toEqual(['lookup', 'end_call']);
    expect(view.tools[1].function.description).toContain('"bye now"');
    expect(view.tool_bindings).toHaveLength(1);
  });
});
