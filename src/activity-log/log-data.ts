import { maskUrl } from '../common/secrets/masking';

/** Response bodies and argument payloads stored in an activity-log entry are cut at this many characters. */
export const LOG_BODY_MAX_CHARS = 4096;

/**
 * A URL as written to the activity log: credentials masked as on every read (`maskUrl`). Customers
 * do put credentials in webhook URLs, and the log is readable by anyone holding the API key.
 */
export function redactUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  return maskUrl(url).slice(0, 2048);
}

/**
 * A JSON value bounded for storage: returned unchanged when its JSON text fits `maxChars`,
 * otherwise that text cut to `maxChars` with a marker naming the full length.
 */
export function capJson(value: unknown, maxChars = LOG_BODY_MAX_CHARS): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= maxChars) return value;
  return capText(text, maxChars);
}

/** Text cut to `maxChars`, with a marker naming the full length. */
export function capText(text: string, maxChars = LOG_BODY_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}…[truncated, ${text.length} characters in total]`;
}

/** A response body for the log: parsed JSON when it is JSON and fits, else (truncated) text. */
export function bodyForLog(
  text: string,
  json: { ok: true; value: unknown } | { ok: false },
  maxChars = LOG_BODY_MAX_CHARS,
): unknown {
  if (json.ok && text.length <= maxChars) return json.value;
  return capText(text, maxChars);
}

/**
 * Containers an entry's `request_data` / `response_data` may nest, the column's own object
 * included. MariaDB refuses JSON nested 32 levels or more; deeper parts are replaced by a marker.
 */
export const LOG_DATA_MAX_DEPTH = 24;

/** Stands in for a part of the data nested deeper than `LOG_DATA_MAX_DEPTH`. */
export const TOO_DEEP_MARKER = `[nested deeper than ${LOG_DATA_MAX_DEPTH} levels]`;

/**
 * `value` in a form every database stores: text that is not well-formed Unicode (a lone UTF-16
 * surrogate, from a customer's response, a tool's arguments or a cut in the middle of a pair) has
 * each bad unit replaced by U+FFFD, keys included, and parts nested deeper than
 * `LOG_DATA_MAX_DEPTH` containers become `TOO_DEEP_MARKER`. MySQL refuses both, and an entry it
 * refuses would be lost; SQLite would store the lone surrogate and give it back. Returns a copy;
 * values that are neither text, arrays nor plain objects are kept as they are.
 */
export function storableJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (value === null || typeof value !== 'object') return value;
  const isArray = Array.isArray(value);
  if (!isArray && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  if (depth >= LOG_DATA_MAX_DEPTH) return TOO_DEEP_MARKER as T;
  if (isArray) return value.map((item: unknown) => storableJson(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a `__proto__` key from parsed JSON stays an own key instead of a prototype.
    Object.defineProperty(out, key.toWellFormed(), {
      value: storableJson(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}
