import fc from 'fast-check';
import { type Body, dropUndefined, partial } from './helpers';
import { boundedText, phoneFormat, text, uniquePhoneDigits } from './text';
import { hasReservedKey, headersArb, maskedHeaders, safeJsonValue } from './tool';

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
    assistant_variants: body.assistant_variants ?? null,
    inbound_context_strategy_id: body.inbound_context_strategy_id ?? null,
    service: 'exotel',
    inbound_config: { phone_number: phone },
    phone_number_normalized: phone.replace(/\D+/g, ''),
    is_active: body.is_active ?? true,
    // Fields the generated bodies leave out, read back as their defaults.
    policy: null,
    environment: null,
    guardrail: null,
    guardrail_state: null,
  };
}

export const testStrategyArb = (assistantIds: string[]): fc.Arbitrary<Body> =>
  partial({
    caller_number: boundedText(0, 64),
    inbound_number: fc.string({ unit: fc.constantFrom(...'0123456789+- ()'), maxLength: 40 }),
    assistant_id: fc.constantFrom(...assistantIds),
  });
