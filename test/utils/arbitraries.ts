/**
 * fast-check arbitraries for the fuzz suite (test/fuzz): generators of VALID request bodies per
 * route, and MUTATORS that turn a valid body into one the API must reject, each naming the field
 * path the 400 must point at.
 *
 * Runs per property come from `FUZZ_RUNS` (default 25, so `npm test` stays fast); `FUZZ_SEED`
 * replays a failing run (fast-check prints the seed and the shrunk counterexample on failure).
 */
import fc from 'fast-check';
import { isSensitiveHeaderName } from '../../src/common/secrets/masking';

// ---------------------------------------------------------------------------------------------
// Run configuration
// ---------------------------------------------------------------------------------------------

/** Cases per property: `FUZZ_RUNS`, default 25. */
export function fuzzRuns(defaultRuns = 25): number {
  const raw = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(raw) && raw > 0 ? raw : defaultRuns;
}

/** `fc.assert` parameters: runs from the environment, a fixed seed when `FUZZ_SEED` is set. */
export function fuzzParams(runs = fuzzRuns()): fc.Parameters<unknown> {
  const seed = Number(process.env.FUZZ_SEED);
  return {
    numRuns: runs,
    ...(Number.isInteger(seed) ? { seed } : {}),
  };
}

/** Jest timeout for a property of `runs` cases that each cost about `msPerCase`. */
export function fuzzTimeout(msPerCase = 150, runs = fuzzRuns()): number {
  return Math.max(30_000, runs * msPerCase * 3);
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

/**
 * Emoji with a presentation selector (U+FE0F) are two code points, and text limits count code
 * points (as MySQL's VARCHAR does), so these generators, which count one unit per character, keep
 * them out by default; the limit behaviour with them is pinned in
 * test/fuzz/regressions.fuzz.e2e-spec.ts. `FUZZ_FE0F=1` mixes them in (expect over-limit refusals).
 */
export const WITH_PRESENTATION_SELECTORS = process.env.FUZZ_FE0F === '1';

/**
 * Characters as a user counts them (and as class-validator's length rules count them: a code
 * point). Mixes ASCII, accented and CJK text, right-to-left scripts and marks, astral emoji, NUL
 * and other control characters, so storage and read-back see every kind of UTF-8.
 */
export const userChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'ø', 'ñ', '中', '文', 'あ', 'ह', 'ক', 'Ж') },
  { weight: 2, arbitrary: fc.constantFrom('א', 'ב', 'ש', 'ع', 'ر', 'ب', 'ي', '\u200f', '\u202e') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '🎉', '🚀', '👍', '𝄞', '🇮') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ...(WITH_PRESENTATION_SELECTORS ? ['❤️', '☎️', '✔️'] : ['❤', '☎', '✔']),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\t', '\n', '\u001b', '\u007f') },
);

/** A string of `min`-`max` user characters. */
export function text(min: number, max: number): fc.Arbitrary<string> {
  return fc.array(userChar, { minLength: min, maxLength: max }).map((chars) => chars.join(''));
}

/**
 * A string at one of the edges of `min`-`max`: exactly min, exactly max, or random in between;
 * sometimes made only of emoji so its UTF-16 and byte lengths are far above `max`.
 */
export function boundedText(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: text(min, Math.min(max, min + 40)) },
    { weight: 1, arbitrary: text(min, min) },
    { weight: 1, arbitrary: text(max, max) },
    {
      weight: 1,
      arbitrary: fc.constant((WITH_PRESENTATION_SELECTORS ? '❤️' : '❤').repeat(Math.max(min, max))),
    },
    { weight: 1, arbitrary: fc.constant('😀'.repeat(Math.max(min, max))) },
  );
}

/** A string that passes a plain `IsString` + printable check (identifiers, voice ids). */
const plainWord = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'),
    minLength: min,
    maxLength: max,
  });

/** Lower-case snake_case `^[a-z][a-z0-9_]*$`, 1-64 characters. */
export const snakeName = (maxLength = 64): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_'),
        maxLength: maxLength - 1,
      }),
    )
    .map(([first, rest]) => first + rest)
    .filter((name) => name !== 'end_call');

let uniqueCounter = 0;
/** A value never generated before in any run: `<prefix>-<time>-<pid>-<n>`. */
export function uniqueSuffix(): string {
  uniqueCounter += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${uniqueCounter.toString(36)}`;
}

/**
 * A dialled number whose digits are unique across runs and processes (one active mapping per
 * normalized number, database-wide): 91, then 16 digits from the clock, the pid and a counter, then
 * formatted in one of the ways people write numbers.
 */
export function uniquePhoneDigits(): string {
  uniqueCounter += 1;
  const time = Date.now() % 1e9; // 9 digits
  const pid = process.pid % 1000; // 3 digits
  // 91 in front, so every spelling of it (with or without +) is the same Indian number.
  return `91${String(time).padStart(9, '0')}${String(pid).padStart(3, '0')}${String(uniqueCounter % 10_000).padStart(4, '0')}`;
}

export const phoneFormat: fc.Arbitrary<(digits: string) => string> = fc.constantFrom(
  (d: string) => d,
  (d: string) => `+${d}`,
  (d: string) => `+${d.slice(0, 2)} ${d.slice(2, 6)} ${d.slice(6)}`,
  (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 7)}-${d.slice(7)}`,
  (d: string) => `${d.slice(0, 5)}.${d.slice(5)}`,
);

// ---------------------------------------------------------------------------------------------
// Valid bodies
// ---------------------------------------------------------------------------------------------

export type Body = Record<string, unknown>;

export const TTS_PROVIDERS = ['cartesia', 'sarvam', 'elevenlabs', 'mistral'] as const;
export const BCP47_VALID = ['bn-IN', 'hi-IN', 'en', 'en-US', 'zh-Hant-TW', 'es-419', 'de-DE-1996'];

/** A provider key: short (masked `****`) or long (masked `****` + last four). */
const apiKey = fc.oneof(plainWord(1, 15), plainWord(16, 80));

/** `fc.record` with every key optional. */
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) =>
  fc.record(model, { requiredKeys: [] });

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

const INTERACTION_DEFAULTS = {
  speaks_first: true,
  filler_words: false,
  silence_reprompts: false,
  silence_reprompt_interval: 10,
  silence_max_reprompts: 2,
};

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

const PARAMETER_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;

const parameterName = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'),
    fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789'),
      maxLength: 63,
    }),
  )
  .map(([a, b]) => a + b);

export const toolParameterArb: fc.Arbitrary<Body> = fc
  .record({
    name: parameterName,
    type: fc.constantFrom(...PARAMETER_TYPES),
    description: fc.option(boundedText(0, 1000), { nil: undefined }),
    required: fc.option(fc.boolean(), { nil: undefined }),
    enum: fc.option(fc.uniqueArray(boundedText(0, 30), { minLength: 1, maxLength: 6 }), {
      nil: undefined,
    }),
  })
  .map((p) => dropUndefined({ ...p, enum: p.type === 'string' ? p.enum : undefined }));

export const toolParametersArb = fc.uniqueArray(toolParameterArb, {
  maxLength: 6,
  selector: (p) => p.name as string,
});

/** Header names the service accepts, some sensitive (masked on read), some not. */
export const headerNameArb = fc.oneof(
  fc.constantFrom(
    'Authorization',
    'X-Api-Key',
    'X-Tenant',
    'x-request-source',
    'X-Secret-Token',
    'Accept-Language',
  ),
  plainWord(1, 40).map((w) => `X-${w}`),
);
const headerValueArb = fc.string({ unit: 'grapheme-ascii', maxLength: 200 });
export const headersArb = fc
  .dictionary(headerNameArb, headerValueArb, { maxKeys: 8 })
  .filter((h) => {
    const lower = Object.keys(h).map((k) => k.toLowerCase());
    return new Set(lower).size === lower.length;
  });

/** Object.prototype member names (and `prototype`): the service refuses them anywhere in a body. */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** True when a value holds a reserved key at any depth. */
export function hasReservedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasReservedKey);
  return Object.entries(value).some(([k, v]) => RESERVED_KEYS.has(k) || hasReservedKey(v));
}

/**
 * `fc.jsonValue` without reserved keys (which would make a valid body invalid, or move where a 400
 * points), as it reads back from JSON: `-0` (which JSON sends as 0) becomes 0.
 */
export const safeJsonValue = (
  constraints: Parameters<typeof fc.jsonValue>[0] = {},
): fc.Arbitrary<unknown> =>
  fc
    .jsonValue(constraints)
    .filter((v) => !hasReservedKey(v))
    .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** Any JSON value but null, kept small: what a static tool may return. */
export const staticValueArb: fc.Arbitrary<unknown> = fc.oneof(
  text(0, 40),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.boolean(),
  fc.array(safeJsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc
    .dictionary(fc.string({ maxLength: 10 }), safeJsonValue({ maxDepth: 2 }), { maxKeys: 5 })
    .filter((v) => !hasReservedKey(v)),
);

export function toolCreateArb(webhookUrl: string): fc.Arbitrary<Body> {
  const webhook = fc.record({
    tool_execution_type: fc.constant('webhook'),
    tool_execution_config: fc
      .record({
        url: fc.constant(webhookUrl),
        timeout: fc.option(
          fc.oneof(
            fc.constantFrom(0.001, 0.5, 10, 60),
            fc.double({ min: 0.01, max: 60, noNaN: true }),
          ),
          {
            nil: undefined,
          },
        ),
        headers: fc.option(headersArb, { nil: undefined }),
      })
      .map(dropUndefined),
  });
  const fixed = fc.record({
    tool_execution_type: fc.constant('static_return'),
    tool_execution_config: fc.record({ value: staticValueArb }),
  });
  return fc
    .record({
      tool_name: snakeName(),
      tool_description: boundedText(1, 500),
      tool_parameters: fc.option(toolParametersArb, { nil: undefined }),
      exec: fc.oneof(webhook, fixed),
    })
    .map(({ exec, ...rest }) => dropUndefined({ ...rest, ...exec }));
}

/** Which header values the service masks: the service's own rule (authorization, token, secret, api-key, ...). */
export const isSensitiveHeader = isSensitiveHeaderName;
export const maskedHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, isSensitiveHeader(k) ? '****' : v]),
  );

/** What `GET /tool/details` must return for a created body (ids and timestamps aside). */
export function expectedTool(body: Body): Body {
  const config = body.tool_execution_config as Body;
  return {
    tool_name: body.tool_name,
    tool_description: body.tool_description,
    tool_parameters: ((body.tool_parameters as Body[] | undefined) ?? []).map((p) => ({
      ...p,
      required: p.required ?? true,
    })),
    tool_execution_type: body.tool_execution_type,
    tool_execution_config:
      body.tool_execution_type === 'webhook'
        ? {
            url: config.url,
            timeout: config.timeout ?? 10,
            headers: maskedHeaders((config.headers as Record<string, string>) ?? {}),
          }
        : { value: config.value },
  };
}

// Huge templates and huge context values ------------------------------------------------------------

/** The most characters (code points) an assistant's prompt and start instruction may hold. */
export const PROMPT_MAX_CHARS = 100_000;
export const START_INSTRUCTION_MAX_CHARS = 200;

/**
 * A template that renders to far more than it is long: up to `maxChars` characters of placeholders
 * (`{{context.blob}}` thousands of times in a prompt, with defaults, call variables and text
 * between), the shape that made a 60 KB value render to hundreds of megabytes.
 */
export function hugeTemplateArb(maxChars = PROMPT_MAX_CHARS): fc.Arbitrary<string> {
  return fc
    .record({
      piece: fc.constantFrom(
        '{{context.blob}}',
        '{{ context.blob }} ',
        'Hi {{context.blob | default: "friend"}}. ',
        '{{context.list}}{{context.name}}',
        '{{call.room_name}}{{context.blob}}',
        '{{context.missing | default: "d"}}{{context.blob}}\n',
      ),
      filler: text(0, 8),
      count: fc.oneof(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 100, max: 1_000 }),
        fc.constant(Number.MAX_SAFE_INTEGER),
      ),
    })
    .map(({ piece, filler, count }) => {
      const unit = `${piece}${filler}`;
      // Code points, as the length rules count them.
      const fits = Math.floor(maxChars / [...unit].length);
      return unit.repeat(Math.max(1, Math.min(count, fits)));
    })
    .filter((template) => [...template].length <= maxChars);
}

/**
 * A context whose `blob` is huge: a string of 10-60 KB (ASCII or multi-byte), a long array, or a
 * wide object, so its JSON stays within the 64 KB the render route and a context response allow.
 */
export const hugeContextArb: fc.Arbitrary<Body> = fc
  .record({
    blob: fc.oneof(
      fc.integer({ min: 10_000, max: 60_000 }).map((n) => 'x'.repeat(n)),
      fc.integer({ min: 2_000, max: 12_000 }).map((n) => '€'.repeat(n)),
      fc.integer({ min: 1_000, max: 5_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
      fc
        .integer({ min: 500, max: 3_000 })
        .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
    ),
    name: fc.option(text(0, 20), { nil: undefined }),
    list: fc.option(fc.array(fc.integer(), { maxLength: 50 }), { nil: undefined }),
  })
  .map(dropUndefined);

// Strategies, inbound mappings, auth, logs --------------------------------------------------------

/** A strategy's `fallback_context`: a small JSON object (the limit is 16 KB). */
export const fallbackContextArb: fc.Arbitrary<Body> = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 12 }), safeJsonValue({ maxDepth: 2 }), {
    maxKeys: 5,
  })
  .filter((v) => !hasReservedKey(v));

export function strategyCreateArb(url: string): fc.Arbitrary<Body> {
  return fc
    .record({
      strategy_name: boundedText(1, 100),
      strategy_type: fc.constant('webhook'),
      strategy_config: fc
        .record({
          url: fc.constant(url),
          headers: fc.option(headersArb, { nil: undefined }),
          timeout_seconds: fc.option(
            fc.oneof(fc.constantFrom(0.5, 2, 10), fc.double({ min: 0.5, max: 10, noNaN: true })),
            { nil: undefined },
          ),
          fallback_context: fc.option(fallbackContextArb, { nil: undefined }),
        })
        .map(dropUndefined),
      is_active: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(dropUndefined);
}

export function expectedStrategy(body: Body): Body {
  const config = body.strategy_config as Body;
  return {
    strategy_name: body.strategy_name,
    strategy_type: 'webhook',
    strategy_config: {
      url: config.url,
      headers: maskedHeaders((config.headers as Record<string, string>) ?? {}),
      timeout_seconds: config.timeout_seconds ?? 2,
      ...(config.fallback_context ? { fallback_context: config.fallback_context } : {}),
    },
    is_active: body.is_active ?? true,
  };
}

export const strategyPatchArb = (url: string): fc.Arbitrary<Body> =>
  partial({
    strategy_name: boundedText(1, 100),
    strategy_config: partial({
      url: fc.constant(url),
      timeout_seconds: fc.double({ min: 0.5, max: 10, noNaN: true }),
      fallback_context: fc.option(fallbackContextArb, { nil: null }),
    }),
    is_active: fc.boolean(),
  });

/** `POST /inbound/assign` with a fresh number; ids are the caller's own. */
export function inboundAssignArb(
  assistantIds: string[],
  strategyIds: string[],
): fc.Arbitrary<Body> {
  return fc
    .record({
      assistant_id: fc.constantFrom(...assistantIds),
      inbound_context_strategy_id: fc.option(fc.constantFrom(...strategyIds, null), {
        nil: undefined,
      }),
      service: fc.constant('exotel'),
      format: phoneFormat,
      is_active: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(({ format, ...rest }) =>
      dropUndefined({ ...rest, inbound_config: { phone_number: format(uniquePhoneDigits()) } }),
    );
}

export function expectedInbound(body: Body): Body {
  const phone = (body.inbound_config as Body).phone_number as string;
  return {
    assistant_id: body.assistant_id,
    assistant_version: body.assistant_version ?? null,
    inbound_context_strategy_id: body.inbound_context_strategy_id ?? null,
    service: 'exotel',
    inbound_config: { phone_number: phone },
    phone_number_normalized: phone.replace(/\D+/g, ''),
    is_active: body.is_active ?? true,
  };
}

export const testStrategyArb = (assistantIds: string[]): fc.Arbitrary<Body> =>
  partial({
    caller_number: boundedText(0, 64),
    inbound_number: fc.string({ unit: fc.constantFrom(...'0123456789+- ()'), maxLength: 40 }),
    assistant_id: fc.constantFrom(...assistantIds),
  });

export function createKeyArb(): fc.Arbitrary<Body> {
  return fc
    .record({
      user_name: boundedText(1, 100),
      local: plainWord(1, 30).map((w) => w.replace(/^[-_]+|[-_]+$/g, '') || 'u'),
      org_name: fc.option(boundedText(1, 100), { nil: undefined }),
    })
    .map(({ local, ...rest }) =>
      dropUndefined({ ...rest, user_email: `${local}.${uniqueSuffix()}@example.com` }),
    );
}

export const LOG_TYPES = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'] as const;

/** Valid `GET /logs` query parameters (values as they appear in the query string). */
export function logsQueryArb(assistantIds: string[]): fc.Arbitrary<Record<string, string>> {
  return partial({
    log_type: fc.constantFrom(...LOG_TYPES),
    assistant_id: fc.oneof(fc.constantFrom(...assistantIds), fc.uuid()),
    room_name: boundedText(1, 100).filter((s) => s.trim() !== '' && !s.includes('\u0000')),
    status: fc.constantFrom('success', 'error'),
    from: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    to: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    page: fc.integer({ min: 1, max: 1000 }).map(String),
    limit: fc.integer({ min: 1, max: 100 }).map(String),
  }).map((query) => query as Record<string, string>);
}

// ---------------------------------------------------------------------------------------------
// Mutators
// ---------------------------------------------------------------------------------------------

/** Path of a field inside a body; numbers index arrays. */
export type Path = (string | number)[];

/** How the API names a path in `data.errors[].field`: `a.b`, `a[0].b`. */
export function fieldName(path: Path): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    '',
  );
}

export type Kind =
  'string' | 'boolean' | 'number' | 'integer' | 'object' | 'array' | 'uuid' | 'enum';

export interface FieldSpec {
  path: Path;
  kind: Kind;
  /** Longest valid string: a huge-string mutation goes over it. */
  max?: number;
  /** The allowed values of an `enum` field. */
  values?: readonly string[];
}

/** A rule a mutator breaks: set `value` at `path` (undefined deletes it). */
export interface Mutation {
  /** What the mutator did, for the counterexample report. */
  label: string;
  path: Path;
  value: unknown;
  /** The path `data.errors[].field` must name (default `path`). */
  expectField?: Path;
  /** Allowed statuses (default [400]). */
  statuses?: readonly number[];
  /** Insert a new key first rather than last (key order matters to some transformers). */
  first?: boolean;
}

/** Describes a route's body for the generic mutators. */
export interface BodySpec {
  /** Fields present in `body` or settable on it, with their JSON kind. */
  fields(body: Body): FieldSpec[];
  /** Fields `body` cannot do without. */
  required(body: Body): Path[];
  /** Objects in `body` (path [] = top level) that reject unknown keys. */
  closedObjects(body: Body): Path[];
  /** Out-of-range values, each invalid whatever the rest of the body holds. */
  outOfRange(body: Body): Mutation[];
  /** Update bodies: leaving a required field out is fine, only `null` breaks it. */
  requiredNullOnly?: boolean;
}

/** Deep nesting: objects and arrays 6-12 levels down, with junk at the bottom. */
export const nestedJunk: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 6, max: 12 }), safeJsonValue({ maxDepth: 1 }), fc.boolean())
  .map(([depth, leaf, asArray]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { [`k${i}`]: value };
    return asArray ? { deep: value } : value;
  });

/**
 * Text that is not well-formed Unicode: a lone high or low surrogate, alone, around other text, or
 * a pair in the wrong order. Sent as JSON it becomes the escape `\ud800`, which parses back to the
 * lone surrogate; the API refuses it (400 naming the field) before anything is stored.
 */
export const loneSurrogateText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ude00\ud83d'),
    fc.string({ maxLength: 6 }),
    fc.constantFrom<'before' | 'after' | 'alone'>('before', 'after', 'alone'),
  )
  .map(([bad, text, where]) =>
    where === 'alone' ? bad : where === 'before' ? bad + text : text + bad,
  );

/** Deeper than the body limit (64 levels): objects or arrays 65-400 levels down. */
export const tooDeep: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 65, max: 400 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { k: value };
    return value;
  });

const stringish = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('', '5', 'true', 'null', '{}'),
);

/** Values of any JSON kind but `kind` (never null: null is optional-friendly on some fields). */
export function wrongValue(kind: Kind): fc.Arbitrary<unknown> {
  const num = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -1, 1e308),
  );
  const bool = fc.boolean();
  const arr = fc.oneof(
    fc.constant([]),
    fc.array(safeJsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }),
  );
  const obj = fc.oneof(
    fc.constant({}),
    nestedJunk.filter((v) => !Array.isArray(v) && typeof v === 'object' && v !== null),
    fc.dictionary(fc.string({ maxLength: 6 }), safeJsonValue({ maxDepth: 1 }), {
      minKeys: 1,
      maxKeys: 3,
    }),
  );
  switch (kind) {
    case 'string':
    case 'enum':
      return fc.oneof(num, bool, arr, obj);
    case 'uuid':
      return fc.oneof(
        num,
        bool,
        arr,
        obj,
        fc.constantFrom('not-a-uuid', '', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
      );
    case 'boolean':
      return fc.oneof(num, arr, obj, fc.constantFrom('true', 'false', '1', ''));
    case 'number':
      return fc.oneof(bool, arr, obj, fc.constantFrom('5', '10', '1e3', ''));
    case 'integer':
      return fc.oneof(
        bool,
        arr,
        obj,
        fc.constantFrom('5', '2', ''),
        fc.constantFrom(2.5, 0.1, 3.0000001),
      );
    case 'object':
      return fc.oneof(num, bool, arr, stringish);
    case 'array':
      return fc.oneof(num, bool, stringish, fc.constant({}), fc.constant({ 0: 'a' }));
  }
}

/**
 * Names of `Object.prototype` members: refused anywhere in a body as reserved field names (the
 * body parser's check, since class-transformer would skip them before the whitelist sees them).
 */
export const PROTOTYPE_KEYS = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  '__defineGetter__',
  'isPrototypeOf',
];

/** Key names no DTO has: random, look-alikes of real fields, unicode, dots and brackets, numeric, prototype members. */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, '0', '42') },
  { weight: 3, arbitrary: plainWord(1, 20).map((w) => `x_${w}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Assistant_Name',
      'user_id',
      'id',
      'created_at',
      'a.b',
      'a[0]',
      '😀',
      'x\u0000y',
      ' ',
      'TOOL_NAME',
    ),
  },
);

/**
 * Strings over a limit of `max` characters: just over (+1, emoji or ASCII), a few times over, or
 * about 900 KB (under the 1 MB body cap, so the answer must be a 400 naming the field, not a 413).
 */
export function overLimit(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('a'.repeat(max + 1)) },
    { weight: 3, arbitrary: fc.constant('😀'.repeat(max + 1)) },
    {
      weight: 3,
      arbitrary: fc.integer({ min: max + 1, max: max * 4 + 10 }).map((n) => 'h'.repeat(n)),
    },
    { weight: 1, arbitrary: fc.constantFrom('😀'.repeat(225_000), 'x'.repeat(900_000)) },
  );
}

function get(body: unknown, path: Path): unknown {
  let cur = body;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[part];
  }
  return cur;
}

/** A deep copy of `body` with `value` set at `path` (or the key removed when `value` is undefined). */
export function setPath(body: Body, path: Path, value: unknown): Body {
  const copy = structuredClone(body);
  let cur: Record<string | number, unknown> = copy;
  for (const part of path.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') cur[part] = {};
    cur = cur[part] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete cur[last];
  else if (last === '__proto__' || last === 'constructor')
    Object.defineProperty(cur, last, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else cur[last] = value;
  return copy;
}

/**
 * Every kind of breakage, as one arbitrary over a spec: wrong types, missing required fields,
 * unknown fields (top level and nested), out-of-range values, huge strings, unicode where only a
 * fixed vocabulary is allowed, lone surrogates in text, nested junk, nesting deeper than the body
 * limit, arrays where objects are expected, null in required places. Each result is invalid
 * whatever else the body holds.
 */
export function mutationArb(spec: BodySpec, body: Body): fc.Arbitrary<Mutation> {
  const fields = spec.fields(body);
  const textFields = fields.filter((f) => f.kind === 'string' || f.kind === 'enum');
  const enumFields = fields.filter((f) => f.kind === 'enum' || f.kind === 'uuid');
  const required = spec.required(body);
  const objects = spec
    .closedObjects(body)
    .filter((p) => p.length === 0 || isPlainObject(get(body, p)));
  const objectFields = fields.filter((f) => f.kind === 'object');
  const range = spec.outOfRange(body);
  const options: fc.Arbitrary<Mutation>[] = [];

  if (fields.length > 0) {
    options.push(
      fc.constantFrom(...fields).chain((f) =>
        wrongValue(f.kind).map((value) => ({
          label: `wrong type (${f.kind} expected)`,
          path: f.path,
          value,
        })),
      ),
    );
  }
  if (required.length > 0) {
    options.push(
      fc
        .constantFrom(...required)
        .chain((path) =>
          spec.requiredNullOnly
            ? fc.constant<Mutation>({ label: 'null in a required field', path, value: null })
            : fc.constantFrom<Mutation>(
                { label: 'missing required field', path, value: undefined },
                { label: 'null in a required field', path, value: null },
              ),
        ),
    );
  }
  if (objects.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...objects),
          unknownKey,
          safeJsonValue({ maxDepth: 2 }),
          fc.boolean(),
        )
        .map(([obj, key, value, first]) => ({
          label: obj.length === 0 ? 'unknown top-level field' : 'unknown nested field',
          path: [...obj, key],
          // an unknown key is reported however harmless its value; `null` included
          value: value === undefined ? 1 : value,
          expectField: [...obj, key],
          first,
        })),
    );
  }
  if (range.length > 0) options.push(fc.constantFrom(...range));
  const huge = fields.filter((f) => f.kind === 'string' && f.max !== undefined);
  if (huge.length > 0) {
    options.push(
      fc.constantFrom(...huge).chain((f) =>
        overLimit(f.max!).map((value) => ({
          label: `string over ${f.max} characters`,
          path: f.path,
          value,
        })),
      ),
    );
  }
  if (enumFields.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...enumFields),
          fc.constantFrom('\u0000', '😀', '\u202e', ' ', '\u200b', 'X'),
          fc.boolean(),
        )
        .map(([f, junk, before]) => {
          const current = get(body, f.path);
          const base =
            typeof current === 'string'
              ? current
              : (f.values?.[0] ?? '00000000-0000-4000-8000-000000000000');
          return {
            label: 'unicode in a fixed vocabulary',
            path: f.path,
            value: before ? junk + base : base + junk,
          };
        }),
    );
  }
  if (objectFields.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...objectFields),
          fc.array(safeJsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        )
        .map(([f, value]) => ({
          label: 'array where an object is expected',
          path: f.path,
          value,
        })),
    );
  }
  if (textFields.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...textFields), nestedJunk)
        .map(([f, value]) => ({ label: 'nested junk in a text field', path: f.path, value })),
      fc.tuple(fc.constantFrom(...textFields), loneSurrogateText).map(([f, value]) => ({
        label: 'lone surrogate in a text field',
        path: f.path,
        value,
      })),
    );
  }
  if (fields.length > 0) {
    // The body check names the path where the limit is crossed, inside the field.
    options.push(
      fc.tuple(fc.constantFrom(...fields), tooDeep).map(([f, value]) => ({
        label: 'nested deeper than 64 levels',
        path: f.path,
        value,
      })),
    );
  }
  return fc.oneof(...options);
}

export function applyMutation(body: Body, mutation: Mutation): Body {
  const out = setPath(body, mutation.path, mutation.value);
  if (!mutation.first) return out;
  // Re-create the parent with the new key first.
  const parentPath = mutation.path.slice(0, -1);
  const key = mutation.path[mutation.path.length - 1] as string;
  const parent = parentPath.length === 0 ? out : get(out, parentPath);
  if (!isPlainObject(parent)) return out;
  const reordered: Body = {};
  Object.defineProperty(reordered, key, {
    value: parent[key],
    enumerable: true,
    writable: true,
    configurable: true,
  });
  for (const [k, v] of Object.entries(parent)) if (k !== key) reordered[k] = v;
  return parentPath.length === 0 ? reordered : setPath(out, parentPath, reordered);
}

/**
 * Chaos: replaces one random leaf or branch of the body with `null`, junk, a random JSON value,
 * text with a lone surrogate or nesting deeper than the body limit.
 * The result may happen to be valid; properties over it check invariants only (no 500, the
 * envelope, no half-written record).
 */
export function chaosArb(body: Body): fc.Arbitrary<Body> {
  const paths: Path[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (isPlainObject(value))
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(body, []);
  if (paths.length === 0) return fc.constant(body);
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.constant(null),
          safeJsonValue({ maxDepth: 2 }),
          nestedJunk,
          fc.constant(undefined),
          loneSurrogateText,
          tooDeep,
        ),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((edits) => edits.reduce<Body>((b, [path, value]) => setPath(b, path, value), body));
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

export function isPlainObject(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function dropUndefined<T extends Body>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
