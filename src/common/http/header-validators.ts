import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';

/** RFC 9110 token: what Node accepts as a header name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
/**
 * Visible ASCII, spaces, tabs and Latin-1 text (U+00A0-U+00FF, which Node sends as one byte each).
 * Refused: CR/LF and the other C0 controls (header injection), DEL, the C1 controls U+0080-U+009F
 * (NEL, U+0085, would leave as byte 0x85, a line break to some parsers) and anything above U+00FF,
 * U+2028/U+2029 included, which Node cannot send as it was written.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\xa0-\xff]{0,4096}$/;
/** Whether Node can send `value` as a header value as it was written (see `HEADER_VALUE`). */
export function isHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}

/** Set by the client itself (length, framing, host, signature): a configured value would break the request or its signature. */
const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** Why a headers object cannot be sent, or null. `allowNull` for update patches (`null` deletes one). */
export function headerRecordProblem(
  value: unknown,
  maxEntries: number,
  allowNull: boolean,
): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'must be an object of header names to string values';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > maxEntries) return `must have at most ${maxEntries} headers`;
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    if (!HEADER_NAME.test(name)) return `has an invalid header name "${name.slice(0, 100)}"`;
    // Header names are case-insensitive: `Authorization` and `authorization` are one header, and
    // only one of them could be sent.
    if (seen.has(name.toLowerCase()))
      return `has the header "${name}" more than once (header names are case-insensitive)`;
    seen.add(name.toLowerCase());
    if (RESERVED.has(name.toLowerCase()))
      return `must not set the "${name}" header, the service sets it`;
    if (v === null && allowNull) continue;
    if (typeof v !== 'string')
      return `header "${name}" must be a string${allowNull ? ' or null' : ''}`;
    if (!HEADER_VALUE.test(v))
      return `header "${name}" has an invalid value (control characters, U+2028/U+2029, characters above U+00FF or over 4096 characters)`;
  }
  return null;
}

/**
 * Custom headers for a customer webhook: an object of string values (or `null` in an update patch)
 * whose names and values Node can actually send, none of them a header the client owns.
 */
export function IsHttpHeaders(
  options: { maxEntries?: number; allowNull?: boolean } = {},
  validationOptions?: ValidationOptions,
) {
  const maxEntries = options.maxEntries ?? 50;
  const allowNull = options.allowNull ?? false;
  return ValidateBy(
    {
      name: 'isHttpHeaders',
      constraints: [maxEntries, allowNull],
      validator: {
        validate: (value: unknown) => headerRecordProblem(value, maxEntries, allowNull) === null,
        defaultMessage: buildMessage(
          (each, args) =>
            `${each}$property ${headerRecordProblem(args?.value, maxEntries, allowNull) ?? 'is invalid'}`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}
