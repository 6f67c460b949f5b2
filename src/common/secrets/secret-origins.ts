/**
 * Where a secret may be sent: its `allowed_origins`. Pure functions shared by the save-time check,
 * the send-time check and the migration that bound the secrets that existed before.
 */

/** The one value for a provider key: resolved only by the runtime read, never sent by this service. */
export const PROVIDER = 'provider';

/** At most this many origins per secret. */
export const MAX_ALLOWED_ORIGINS = 20;

/** A reference, as it may stand in a URL's user info, path or query. */
const REFERENCE = /\{\{secret\.[A-Z][A-Z0-9_]{0,63}\}\}/g;

/**
 * The origin (`scheme://host[:port]`, the default port left out, the host in lower case) a request
 * to `url` goes to, or null when `url` is not an http(s) URL. References are only allowed where
 * they do not change the origin, so they are set aside before parsing.
 */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.replace(REFERENCE, 'x'));
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/** A wildcard's stand-in label while the pattern is parsed as a URL. */
const WILDCARD_LABEL = 'wildcard--label';

/**
 * `value` as stored (normalised like `originOf`), or null when it is not an origin: `http(s)://`,
 * a host (optionally `*.` followed by at least two labels) and an optional port; no user info,
 * path, query or fragment; or the single value `provider`.
 */
export function normaliseOrigin(value: string): string | null {
  if (value === PROVIDER) return PROVIDER;
  const match = /^(https?):\/\/(\*\.)?([^/?#@*]+)$/i.exec(value);
  if (!match) return null;
  const [, scheme, wildcard, rest] = match;
  const origin = originOf(`${scheme}://${wildcard ? `${WILDCARD_LABEL}.` : ''}${rest}`);
  if (!origin) return null;
  if (wildcard && rest.split(':')[0].split('.').filter(Boolean).length < 2) return null;
  return origin.replace(`${WILDCARD_LABEL}.`, '*.');
}

/** Whether `pattern` (a stored origin, wildcard or `provider`) lets a value go to `destination`. */
function matches(pattern: string, destination: string): boolean {
  if (pattern === destination) return true;
  if (pattern === PROVIDER || destination === PROVIDER) return false;
  const star = pattern.indexOf('://*.');
  if (star < 0) return false;
  const scheme = pattern.slice(0, star + 3);
  const suffix = pattern.slice(star + 4);
  // `https://*.example.com` takes `https://api.example.com` and `https://a.b.example.com`, not
  // `https://example.com`, another scheme or another port.
  return (
    destination.startsWith(scheme) &&
    destination.endsWith(suffix) &&
    destination.length > scheme.length + suffix.length &&
    !destination.slice(scheme.length, -suffix.length).includes(':')
  );
}

/** Whether a secret bound to `allowed` may be resolved for `destination` (never when unbound or unknown). */
export function originAllowed(
  allowed: readonly string[] | null | undefined,
  destination: string | null,
): boolean {
  if (!allowed || destination === null) return false;
  return allowed.some((pattern) => matches(pattern, destination));
}

/** A destination in a message: a provider key or an origin. */
export function destinationText(destination: string | null): string {
  if (destination === PROVIDER) return 'a provider api_key';
  return destination ?? 'an invalid URL';
}
