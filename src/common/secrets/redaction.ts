import { maskUrl } from './url-masking';

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
