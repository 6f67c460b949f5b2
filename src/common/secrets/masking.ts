/** What a masked secret looks like in a response; sending it back on update keeps the stored value. */
export const MASK = '****';

const SENSITIVE_HEADER_PARTS = [
  'authorization',
  'token',
  'secret',
  'api-key',
  'api_key',
  'apikey',
  'password',
  'cookie',
  'key',
  'signature',
  'credential',
];

/** Header names that count as sensitive: authorization, token, secret, api-key, password, cookie, key... */
export function isSensitiveHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_HEADER_PARTS.some((part) => lower.includes(part));
}

/** True for `****` and for hints such as `****abcd`: values that stand for "keep what is stored". */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(MASK);
}

/** A provider key as shown to clients: `****` plus the last four characters when the key is long enough to spare them. */
export function maskSecret(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined) return value;
  return value.length >= 16 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** Headers as returned to clients: sensitive values replaced by `****`. */
export function maskHeaders(headers: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = isSensitiveHeaderName(name) ? MASK : value;
  }
  return out;
}

/** Headers as written to the activity log: every value hidden, names kept so a reader sees what was sent. */
export function redactHeaders(headers: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers ?? {})) out[name] = MASK;
  return out;
}

/**
 * Merges a header patch into stored headers key by key: `null` deletes a header, a masked value
 * keeps the stored one, anything else replaces it. Header names are matched case-insensitively
 * so `Authorization` and `authorization` cannot both end up stored.
 */
export function mergeHeaders(
  stored: Record<string, string> | null | undefined,
  patch: Record<string, string | null> | null | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...(stored ?? {}) };
  const findKey = (name: string) => Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
  for (const [name, value] of Object.entries(patch ?? {})) {
    const existing = findKey(name);
    if (value === null) {
      if (existing !== undefined) delete out[existing];
      continue;
    }
    if (isMasked(value)) continue;
    if (existing !== undefined && existing !== name) delete out[existing];
    out[name] = value;
  }
  return out;
}

/** A provider key on update: a masked value (or absence) keeps the stored key, `null` removes it. */
export function mergeSecret(stored: string | undefined, sent: string | null | undefined): string | undefined {
  if (sent === undefined || isMasked(sent)) return stored;
  if (sent === null) return undefined;
  return sent;
}
