import fc from 'fast-check';
import { isSensitiveHeaderName } from '../../../src/common/secrets/masking';
import { type Body, dropUndefined } from './helpers';
import { boundedText, plainWord, snakeName, text } from './text';

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
    // The side-effect fields the generated bodies leave out, read back as their defaults.
    side_effect: 'none',
    dedupe_key: null,
    dedupe_window_seconds: 3600,
    notify_cancel: false,
  };
}

// Huge templates and huge context values ------------------------------------------------------------

/** The most characters (code points) an assistant's prompt and start instruction may hold. */
