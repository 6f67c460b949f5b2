import fc from 'fast-check';
import { INTERACTION_DEFAULTS } from '../../fixtures/assistant';
import { type Body, dropUndefined, partial } from './helpers';
import { boundedText, plainWord } from './text';

// ---------------------------------------------------------------------------------------------
// Valid bodies
// ---------------------------------------------------------------------------------------------

export const TTS_PROVIDERS = ['cartesia', 'sarvam', 'elevenlabs', 'mistral'] as const;
export const BCP47_VALID = ['bn-IN', 'hi-IN', 'en', 'en-US', 'zh-Hant-TW', 'es-419', 'de-DE-1996'];

/** A provider key: short (masked `****`) or long (masked `****` + last four). */
const apiKey = fc.oneof(plainWord(1, 15), plainWord(16, 80));

export const interactionConfigArb = partial({
  speaks_first: fc.boolean(),
  filler_words: fc.boolean(),
  silence_reprompts: fc.boolean(),
  silence_reprompt_interval: fc.oneof(
    fc.constantFrom(1, 1.0001, 10, 59.999, 60),
    fc.double({ min: 1, max: 60, noNaN: true, noDefaultInfinity: true }),
  ),
  silence_max_reprompts: fc.integer({ min: 0, max: 5 }),
});

export function ttsConfigArb(model: (typeof TTS_PROVIDERS)[number]): fc.Arbitrary<Body> {
  const key = fc.option(apiKey, { nil: undefined });
  if (model === 'sarvam') {
    return fc
      .record({
        speaker: boundedText(1, 200),
        target_language_code: fc.option(fc.constantFrom(...BCP47_VALID), { nil: undefined }),
        api_key: key,
      })
      .map(dropUndefined);
  }
  return fc.record({ voice_id: boundedText(1, 200), api_key: key }).map(dropUndefined);
}

export const llmConfigArb = partial({
  provider: fc.constant('gemini'),
  model: boundedText(1, 200),
  voice: fc.oneof(fc.constantFrom('Puck', 'Kore', 'Charon'), boundedText(1, 200)),
  api_key: apiKey,
});

/** Every mode, every provider, end-call on and off, optional fields present or absent. */
export function assistantCreateArb(endCallUrl: string): fc.Arbitrary<Body> {
  const common = {
    assistant_name: boundedText(1, 100),
    assistant_description: boundedText(1, 300),
    assistant_prompt: fc.oneof(boundedText(1, 400), fc.constant('Hi {{context.name}} 👋')),
    assistant_start_instruction: fc.option(boundedText(0, 200), { nil: undefined }),
    assistant_interaction_config: fc.option(interactionConfigArb, { nil: undefined }),
    end_call: fc.option(
      fc.record({
        assistant_end_call_enabled: fc.boolean(),
        assistant_end_call_trigger_phrase: boundedText(1, 60),
        assistant_end_call_agent_message: boundedText(1, 120),
        assistant_end_call_url: fc.option(fc.constant(endCallUrl), { nil: undefined }),
      }),
      { nil: undefined },
    ),
  };
  const pipeline = fc.constantFrom(...TTS_PROVIDERS).chain((model) =>
    fc.record({
      ...common,
      assistant_llm_mode: fc.option(fc.constant('pipeline'), { nil: undefined }),
      assistant_tts_model: fc.constant(model),
      assistant_tts_config: ttsConfigArb(model),
      assistant_llm_config: fc.option(llmConfigArb, { nil: undefined }),
    }),
  );
  const realtime = fc.record({
    ...common,
    assistant_llm_mode: fc.constant('realtime'),
    assistant_llm_config: llmConfigArb,
    tts: fc.option(
      fc.constantFrom(...TTS_PROVIDERS).chain((model) =>
        fc.record({
          assistant_tts_model: fc.constant(model),
          assistant_tts_config: ttsConfigArb(model),
        }),
      ),
      { nil: undefined },
    ),
  });
  return fc.oneof(pipeline, realtime).map((raw) => {
    const { end_call, tts, ...rest } = raw as Body & { end_call?: Body; tts?: Body };
    return dropUndefined({ ...rest, ...(end_call ?? {}), ...(tts ?? {}) });
  });
}

/** What `GET /assistant/details` must return for a created body (tool ids and timestamps aside). */
export function expectedAssistant(body: Body): Body {
  const mode = body.assistant_llm_mode === 'realtime' ? 'realtime' : 'pipeline';
  const interaction = {
    ...INTERACTION_DEFAULTS,
    ...((body.assistant_interaction_config as Body) ?? {}),
  };
  if (mode === 'realtime') interaction.filler_words = false;
  const tts = body.assistant_tts_config as Body | undefined;
  const llm = body.assistant_llm_config as Body | undefined;
  return {
    assistant_name: body.assistant_name,
    assistant_description: body.assistant_description,
    assistant_prompt: body.assistant_prompt,
    assistant_llm_mode: mode,
    assistant_start_instruction: body.assistant_start_instruction ?? null,
    assistant_interaction_config: interaction,
    assistant_end_call_enabled: body.assistant_end_call_enabled === true,
    assistant_end_call_trigger_phrase: body.assistant_end_call_trigger_phrase ?? null,
    assistant_end_call_agent_message: body.assistant_end_call_agent_message ?? null,
    assistant_end_call_url: body.assistant_end_call_url ?? null,
    assistant_tts_model: body.assistant_tts_model ?? null,
    assistant_tts_config: tts
      ? maskKey({
          ...tts,
          ...(body.assistant_tts_model === 'sarvam' && tts.target_language_code === undefined
            ? { target_language_code: 'bn-IN' }
            : {}),
        })
      : null,
    assistant_llm_config: llm
      ? maskKey({
          provider: 'gemini',
          model: 'gemini-3.1-flash-live-preview',
          voice: 'Puck',
          ...llm,
        })
      : null,
  };
}

/** `****`, or `****` + the last four characters for keys of 16+ characters. */
export function maskedKey(key: string): string {
  return key.length >= 16 ? `****${key.slice(-4)}` : '****';
}

function maskKey(config: Body): Body {
  return typeof config.api_key === 'string'
    ? { ...config, api_key: maskedKey(config.api_key) }
    : config;
}

/** A valid `PATCH /assistant/update` body for an assistant created from `created`. */
export function assistantPatchArb(created: Body, endCallUrl: string): fc.Arbitrary<Body> {
  const model = created.assistant_tts_model as (typeof TTS_PROVIDERS)[number] | undefined;
  return partial({
    assistant_name: boundedText(1, 100),
    assistant_description: boundedText(1, 300),
    assistant_prompt: boundedText(1, 300),
    assistant_start_instruction: fc.oneof(boundedText(0, 200), fc.constant(null)),
    assistant_interaction_config: interactionConfigArb,
    assistant_end_call_url: fc.oneof(fc.constant(endCallUrl), fc.constant(null)),
    ...(model ? { assistant_tts_config: ttsConfigArb(model) } : {}),
  });
}

/** The details expected after `patch` is applied to what `before` shows (keys masked in both). */
export function expectedAfterAssistantPatch(before: Body, patch: Body): Body {
  const out: Body = { ...before };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'assistant_interaction_config') {
      out[key] = { ...(before[key] as Body), ...(value as Body) };
      if (before.assistant_llm_mode === 'realtime') (out[key] as Body).filler_words = false;
    } else if (key === 'assistant_tts_config') {
      const merged: Body = { ...(before[key] as Body), ...(value as Body) };
      const sentKey = (value as Body).api_key;
      if (typeof sentKey === 'string') merged.api_key = maskedKey(sentKey);
      out[key] = merged;
    } else {
      out[key] = value;
    }
  }
  return out;
}

// Tools -----------------------------------------------------------------------------------------
