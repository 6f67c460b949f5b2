import { AppException } from '../errors/app.exception';
import { madeOfReferencesAndPlainText } from './secret-reference';

/** What a masked secret looks like in a response; sending it back on update keeps the stored value. */
export const MASK = '****';

/**
 * The one rule for what is a secret. A header (or URL query parameter) is sensitive when its name
 * contains any of these parts, case-insensitively, or has one of `SENSITIVE_NAME_TOKENS` as a
 * word, or when its value looks like a credential.
 */
const SENSITIVE_NAME_PARTS = [
  'auth',
  'token',
  'secret',
  'key',
  'pass',
  'pwd',
  'session',
  'cookie',
  'sig',
  'jwt',
  'bearer',
  'credential',
  'hmac',
  'private',
  'otp',
];

/**
 * Words that make a name sensitive when they stand as a whole token of it (the name split on `-`
 * and `_`, and between a lower-case letter and an upper-case one, case-insensitively): short
 * credential names (`Sid`, `X-Csrf`, `X-Pin`, `PAT`, `X-Api-Code`) whose words are too short to
 * match inside other names as the parts above do (`pin` in `X-Shipping`, `pat` in `X-Path`).
 * `api` covers `X-Api-Code`, `X-Api-Id` and the like while `X-Country-Code` stays readable.
 */
const SENSITIVE_NAME_TOKENS = new Set([
  'sid',
  'csrf',
  'xsrf',
  'pin',
  'cred',
  'creds',
  'access',
  'pat',
  'nonce',
  'api',
  'pw',
  'passcode',
]);

/** `Bearer …`, `Basic …` and the other HTTP authentication schemes. */
const AUTH_SCHEME = /^(?:bearer|basic|digest|token|apikey|api-key|hmac|negotiate|ntlm)\s+\S/i;
/** A JSON Web Token: base64url header (`eyJ…`), payload and signature. */
const JWT = /^eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*$/;
/** Prefixes of well-known key formats (OpenAI/Stripe, Slack, GitHub, GitLab, AWS, Google, SendGrid...). */
const KEY_PREFIX =
  /^(?:sk|pk|rk)[-_]\S{8,}|^xox[abposr]-|^gh[pousr]_|^github_pat_|^glpat-|^AKIA[0-9A-Z]{12,}|^AIza[\w-]{20,}|^whsec_|^vac_|^shp(?:at|ss|ca)_|^SG\.[\w-]{10,}|^key-[0-9a-zA-Z]{16,}/;
const TOKEN_CHARS = /^[A-Za-z0-9+/=_.~-]{20,}$/;

/** Shannon entropy of the characters of `value`, in bits per character. */
function entropyPerChar(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A long random-looking string: 20+ token characters, mixed classes switching often (words,
 * dates and slugs switch rarely) and high entropy. Errs towards masking: a masked plain value
 * costs readability only.
 */
function looksRandom(value: string): boolean {
  if (!TOKEN_CHARS.test(value)) return false;
  const classOf = (c: string) =>
    /[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : /[0-9]/.test(c) ? 3 : 0;
  const classes = [...value].map(classOf).filter((c) => c !== 0);
  if (new Set(classes).size < 2) return false;
  let switches = 0;
  for (let i = 1; i < classes.length; i++) if (classes[i] !== classes[i - 1]) switches += 1;
  return switches / classes.length >= 0.25 && entropyPerChar(value) >= 3.5;
}

/** Whether a value looks like a credential whatever its name: auth scheme, JWT, known key prefix, random token. */
export function looksLikeCredential(value: string): boolean {
  const trimmed = value.trim();
  return (
    AUTH_SCHEME.test(trimmed) ||
    JWT.test(trimmed) ||
    KEY_PREFIX.test(trimmed) ||
    looksRandom(trimmed)
  );
}

/** The words of a name: split on `-` and `_` and at lower-to-upper case changes, lower-cased. */
function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .split(/[-_]+/)
    .filter(Boolean);
}

/**
 * Names that count as sensitive: containing auth, token, secret, key, pass, pwd, session,
 * cookie, sig, jwt..., or having sid, csrf, pin, cred, access, pat, nonce, api... as a word.
 */
export function isSensitiveHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    SENSITIVE_NAME_PARTS.some((part) => lower.includes(part)) ||
    nameTokens(name).some((token) => SENSITIVE_NAME_TOKENS.has(token))
  );
}

/** Whether a header (or query parameter) is shown masked: by its name or by its value. */
export function isSensitiveEntry(name: string, value: string): boolean {
  if (showsReferencesOnly(value, isSensitiveHeaderName(name))) return false;
  return isSensitiveHeaderName(name) || looksLikeCredential(value);
}

/** A value made only of `{{secret.NAME}}` references and plain text is shown as written. */
export function showsReferencesOnly(value: string, sensitiveName: boolean): boolean {
  return madeOfReferencesAndPlainText(value, sensitiveName, looksLikeCredential);
}

/** True for `****` and for hints such as `****abcd`: values that stand for "keep what is stored". */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(MASK);
}

/** A provider key as shown to clients: `****` plus the last four characters when the key is long enough to spare them. */
export function maskSecret(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined) return value;
  if (showsReferencesOnly(value, true)) return value;
  return value.length >= 16 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** Headers as returned to clients: sensitive values replaced by `****`. */
export function maskHeaders(
  headers: Record<string, string> | null | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = isSensitiveEntry(name, value) ? MASK : value;
  }
  return out;
}

/** Headers as written to the activity log: every value hidden, names kept so a reader sees what was sent. */
export function redactHeaders(
  headers: Record<string, string> | null | undefined,
): Record<string, string> {
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
  const findKey = (name: string) =>
    Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
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
export function mergeSecret(
  stored: string | undefined,
  sent: string | null | undefined,
): string | undefined {
  if (sent === undefined || isMasked(sent)) return stored;
  if (sent === null) return undefined;
  return sent;
}

/** `scheme://host:port` of a URL (default ports dropped), or null when it does not parse. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether `next` sends to another scheme, host or port than `stored`. */
export function originChanged(
  stored: string | null | undefined,
  next: string | null | undefined,
): boolean {
  return originOf(stored) !== originOf(next);
}

/**
 * Stored headers travel with a URL only while its origin stays: a header value a client reads
 * back masked must come again in clear (or `null` to remove it) when the URL moves to another
 * origin, else a PATCH of the URL alone would send the stored secret to a host of the client's
 * choosing. Throws 400 naming each header still masked.
 */
export function assertHeadersResentForNewOrigin(
  storedUrl: string | null | undefined,
  nextUrl: string | null | undefined,
  stored: Record<string, string> | null | undefined,
  patch: Record<string, string | null> | null | undefined,
  field: string,
): void {
  if (!storedUrl || !originChanged(storedUrl, nextUrl)) return;
  const masked = maskHeaders(stored);
  const sent = Object.entries(patch ?? {});
  const errors = Object.keys(masked)
    .filter((name) => masked[name] !== stored?.[name])
    .flatMap((name) => {
      const entry = sent.find(([sentName]) => sentName.toLowerCase() === name.toLowerCase());
      if (entry && (entry[1] === null || !isMasked(entry[1]))) return [];
      return [
        {
          field: `${field}.${entry?.[0] ?? name}`,
          message: `${field}.${entry?.[0] ?? name}: the URL's origin changed, so the stored value is not carried over; send it again in clear, or null to remove it`,
        },
      ];
    });
  if (errors.length) throw AppException.validation(errors);
}
