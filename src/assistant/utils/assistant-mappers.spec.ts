import type { AppException } from '../../common/errors/app.exception';
import { validateOrThrow } from '../../common/validation/validate';
import type { AssistantEntity } from '../assistant.entity';
import type { AssistantFields } from '../assistant.types';
import { CreateAssistantDto } from '../dto/create-assistant.dto';
import { applyAssistantDefaults } from './apply-assistant-defaults.util';
import { mergeAssistantPatch } from './merge-assistant-patch.util';
import { toAssistantDetails } from './to-assistant-details.util';
import { toEffectiveConfig } from './to-effective-config.util';

const LONG_KEY = 'sk_live_0123456789abcdef';

const base = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  assistant_name: 'Support',
  assistant_description: 'd',
  assistant_prompt: 'p',
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'v1' },
  ...over,
});

const entity = (fields: AssistantFields): AssistantEntity => ({
  assistant_id: '00000000-0000-4000-8000-000000000001',
  user_id: 'u1',
  ...fields,
  created_at: new Date('2026-01-02T03:04:05.678Z'),
  updated_at: new Date('2026-01-02T03:04:06.000Z'),
});

describe('applyAssistantDefaults', () => {
  it('fills every default of a minimal pipeline body', () => {
    expect(applyAssistantDefaults(base())).toEqual({
      assistant_name: 'Support',
      assistant_description: 'd',
      assistant_prompt: 'p',
      assistant_llm_mode: 'pipeline',
      assistant_start_instruction: null,
      assistant_interaction_config: {
        speaks_first: true,
        filler_words: false,
        silence_reprompts: false,
        silence_reprompt_interval: 10,
        silence_max_reprompts: 2,
      },
      assistant_end_call_enabled: false,
      assistant_end_call_trigger_phrase: null,
      assistant_end_call_agent_message: null,
      assistant_end_call_url: null,
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'v1' },
      assistant_llm_config: null,
    });
  });

  it('keeps sent interaction values and fills the rest; null means default', () => {
    expect(
      applyAssistantDefaults(
        base({
          assistant_interaction_config: {
            filler_words: true,
            silence_max_reprompts: 0,
            speaks_first: null,
          },
        }),
      ).assistant_interaction_config,
    ).toEqual({
      speaks_first: true,
      filler_words: true,
      silence_reprompts: false,
      silence_reprompt_interval: 10,
      silence_max_reprompts: 0,
    });
  });

  it('forces filler_words false in realtime mode and defaults the llm config', () => {
    const fields = applyAssistantDefaults({
      ...base({ assistant_tts_model: undefined, assistant_tts_config: undefined }),
      assistant_llm_mode: 'realtime',
      assistant_llm_config: {},
      assistant_interaction_config: { filler_words: true },
    });
    expect(fields.assistant_interaction_config.filler_words).toBe(false);
    expect(fields.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'gemini-3.1-flash-live-preview',
      voice: 'Puck',
    });
    expect(fields.assistant_tts_model).toBeNull();
    expect(fields.assistant_tts_config).toBeNull();
  });

  it('keeps sent llm values', () => {
    expect(
      applyAssistantDefaults(
        base({
          assistant_llm_mode: 'realtime',
          assistant_llm_config: { voice: 'Kore', api_key: 'k' },
        }),
      ).assistant_llm_config,
    ).toEqual({
      provider: 'gemini',
      model: 'gemini-3.1-flash-live-preview',
      voice: 'Kore',
      api_key: 'k',
    });
  });

  it('defaults sarvam target_language_code to bn-IN, keeps a sent one', () => {
    expect(
      applyAssistantDefaults(
        base({ assistant_tts_model: 'sarvam', assistant_tts_config: { speaker: 'anushka' } }),
      ).assistant_tts_config,
    ).toEqual({ speaker: 'anushka', target_language_code: 'bn-IN' });
    expect(
      applyAssistantDefaults(
        base({
          assistant_tts_model: 'sarvam',
          assistant_tts_config: { speaker: 'anushka', target_language_code: 'hi-IN' },
        }),
      ).assistant_tts_config,
    ).toEqual({ speaker: 'anushka', target_language_code: 'hi-IN' });
  });

  it('is idempotent', () => {
    const once = applyAssistantDefaults(
      base({ assistant_llm_mode: 'realtime', assistant_llm_config: {} }),
    );
    expect(applyAssistantDefaults(once)).toEqual(once);
  });
});

describe('toAssistantDetails', () => {
  it('masks provider keys, fills defaults of a stored row, formats timestamps', () => {
    const stored = entity({
      ...applyAssistantDefaults(
        base({ assistant_tts_config: { voice_id: 'v1', api_key: LONG_KEY } }),
      ),
      assistant_llm_config: { provider: 'gemini', model: 'm', voice: 'Puck', api_key: 'short' },
      // a stored config missing keys reads with their defaults
      assistant_interaction_config: {
        speaks_first: false,
      } as AssistantFields['assistant_interaction_config'],
    });
    const details = toAssistantDetails(stored, ['t1']);
    expect(details.assistant_tts_config).toEqual({ voice_id: 'v1', api_key: '****cdef' });
    expect(details.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'm',
      voice: 'Puck',
      api_key: '****',
    });
    expect(details.assistant_interaction_config).toEqual({
      speaks_first: false,
      filler_words: false,
      silence_reprompts: false,
      silence_reprompt_interval: 10,
      silence_max_reprompts: 2,
    });
    expect(details.tool_ids).toEqual(['t1']);
    expect(details.created_at).toBe('2026-01-02T03:04:05.678Z');
    expect(details.updated_at).toBe('2026-01-02T03:04:06.000Z');
    expect(JSON.stringify(details)).not.toContain(LONG_KEY);
    expect(JSON.stringify(details)).not.toContain('short');
    // the effective config keeps keys in clear for the call stack
    expect(toEffectiveConfig(stored).assistant_tts_config?.api_key).toBe(LONG_KEY);
  });

  it('does not invent an api_key', () => {
    const details = toAssistantDetails(entity(applyAssistantDefaults(base())), []);
    expect(details.assistant_tts_config).toEqual({ voice_id: 'v1' });
    expect(details.assistant_llm_config).toBeNull();
  });
});

describe('mergeAssistantPatch', () => {
  const stored = applyAssistantDefaults(
    base({
      assistant_start_instruction: 'Hi',
      assistant_interaction_config: { silence_reprompts: true, silence_max_reprompts: 4 },
      assistant_tts_config: { voice_id: 'v1', api_key: LONG_KEY },
      assistant_llm_config: { voice: 'Kore', api_key: 'gemini-key' },
    }),
  );

  it('keeps everything on an empty patch', () => {
    const { merged, errors } = mergeAssistantPatch(stored, {});
    expect(errors).toEqual([]);
    expect(applyAssistantDefaults(merged)).toEqual(stored);
  });

  it('replaces top-level fields and clears with null', () => {
    const { merged } = mergeAssistantPatch(stored, {
      assistant_name: 'New',
      assistant_start_instruction: null,
    });
    expect(merged.assistant_name).toBe('New');
    expect(merged.assistant_start_instruction).toBeNull();
    expect(merged.assistant_prompt).toBe('p');
  });

  it('merges the interaction config key by key; null resets a key, a null config resets all', () => {
    const { merged } = mergeAssistantPatch(stored, {
      assistant_interaction_config: { silence_reprompt_interval: 5, silence_max_reprompts: null },
    });
    expect(applyAssistantDefaults(merged).assistant_interaction_config).toEqual({
      speaks_first: true,
      filler_words: false,
      silence_reprompts: true,
      silence_reprompt_interval: 5,
      silence_max_reprompts: 2,
    });
    const reset = mergeAssistantPatch(stored, { assistant_interaction_config: null }).merged;
    expect(applyAssistantDefaults(reset).assistant_interaction_config.silence_reprompts).toBe(
      false,
    );
  });

  it('merges the llm config key by key; a masked key keeps the stored one, null removes it', () => {
    let { merged } = mergeAssistantPatch(stored, {
      assistant_llm_config: { model: 'm2', api_key: '****' },
    });
    expect(merged.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'm2',
      voice: 'Kore',
      api_key: 'gemini-key',
    });
    ({ merged } = mergeAssistantPatch(stored, { assistant_llm_config: { api_key: null } }));
    expect(merged.assistant_llm_config).toEqual({
      provider: 'gemini',
      model: 'gemini-3.1-flash-live-preview',
      voice: 'Kore',
    });
    ({ merged } = mergeAssistantPatch(stored, { assistant_llm_config: { api_key: 'new-key' } }));
    expect((merged.assistant_llm_config as { api_key: string }).api_key).toBe('new-key');
  });

  it('merges the tts config while the provider stays; masked hint keeps the key', () => {
    const { merged, errors } = mergeAssistantPatch(stored, {
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'v2', api_key: '****cdef' },
    });
    expect(errors).toEqual([]);
    expect(merged.assistant_tts_config).toEqual({ voice_id: 'v2', api_key: LONG_KEY });
  });

  it('requires a config when the tts model changes', () => {
    const { errors } = mergeAssistantPatch(stored, { assistant_tts_model: 'sarvam' });
    expect(errors).toEqual([
      {
        field: 'assistant_tts_config',
        message: 'assistant_tts_config is required when assistant_tts_model changes',
      },
    ]);
  });

  it('replaces the config on a provider change and never carries the old key over', () => {
    const { merged, errors } = mergeAssistantPatch(stored, {
      assistant_tts_model: 'sarvam',
      assistant_tts_config: { speaker: 'anushka', api_key: '****' },
    });
    expect(errors).toEqual([]);
    expect(merged.assistant_tts_model).toBe('sarvam');
    expect(merged.assistant_tts_config).toEqual({ speaker: 'anushka' });
  });

  it('clears tts model and config with null', () => {
    const { merged } = mergeAssistantPatch(stored, { assistant_tts_model: null });
    expect(merged.assistant_tts_model).toBeNull();
    expect(merged.assistant_tts_config).toBeNull();
  });

  it('switching to realtime keeps the stored llm config and forces filler words off', () => {
    const withFiller = {
      ...stored,
      assistant_interaction_config: { ...stored.assistant_interaction_config, filler_words: true },
    };
    const { merged } = mergeAssistantPatch(withFiller, { assistant_llm_mode: 'realtime' });
    const fields = applyAssistantDefaults(merged);
    expect(fields.assistant_llm_mode).toBe('realtime');
    expect(fields.assistant_llm_config?.voice).toBe('Kore');
    expect(fields.assistant_interaction_config.filler_words).toBe(false);
  });
});

describe('merged record re-validation', () => {
  const pipelineStored = applyAssistantDefaults(base());

  async function revalidate(patch: Record<string, unknown>): Promise<unknown> {
    const { merged } = mergeAssistantPatch(pipelineStored, patch);
    try {
      await validateOrThrow(CreateAssistantDto, merged);
      return [];
    } catch (error) {
      return (error as AppException).data?.errors;
    }
  }

  it('rejects switching to realtime without an llm config on record', async () => {
    expect(await revalidate({ assistant_llm_mode: 'realtime' })).toEqual([
      {
        field: 'assistant_llm_config',
        message: 'assistant_llm_config is required in realtime mode',
      },
    ]);
    expect(await revalidate({ assistant_llm_mode: 'realtime', assistant_llm_config: {} })).toEqual(
      [],
    );
  });

  it('rejects enabling end-call without its texts, and a sarvam switch with a voice_id config', async () => {
    expect(await revalidate({ assistant_end_call_enabled: true })).toEqual([
      {
        field: 'assistant_end_call_trigger_phrase',
        message:
          'assistant_end_call_trigger_phrase is required when assistant_end_call_enabled is true',
      },
      {
        field: 'assistant_end_call_agent_message',
        message:
          'assistant_end_call_agent_message is required when assistant_end_call_enabled is true',
      },
    ]);
    expect(
      await revalidate({ assistant_tts_model: 'sarvam', assistant_tts_config: { voice_id: 'v' } }),
    ).toEqual([
      { field: 'assistant_tts_config.voice_id', message: 'unknown field' },
      { field: 'assistant_tts_config.speaker', message: 'speaker is required' },
    ]);
  });

  it('rejects clearing a required field', async () => {
    expect(await revalidate({ assistant_prompt: null })).toEqual([
      { field: 'assistant_prompt', message: 'assistant_prompt is required' },
    ]);
  });
});
