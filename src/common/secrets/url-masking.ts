import { AppException } from '../errors/app.exception';
import { MASK, isSensitiveEntry, showsReferencesOnly } from './masking';

/**
 * URLs as shown to clients and logs, and as sent back on update: credentials in the URL (user
 * name, password, sensitive query parameters) masked by the rules of `masking`, and restored from
 * the stored URL when a client sends the masked form back on the same origin.
 */

/** A percent-encoded URL part decoded, or as it is when it does not decode. */
function decodedPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * A URL as shown to clients and written to logs: user name and password (`user:pass@`) and the
 * values of sensitive query parameters replaced by `****`. A URL with nothing to hide comes back
 * unchanged, character for character.
 */
export function maskUrl(url: string): string;
export function maskUrl(url: string | null): string | null;
export function maskUrl(url: string | null): string | null {
  if (!url) return url;
  const parsed = parseUrl(url);
  if (!parsed) return url;
  let changed = false;
  if (parsed.username && !showsReferencesOnly(decodedPart(parsed.username), true)) {
    parsed.username = MASK;
    changed = true;
  }
  if (parsed.password && !showsReferencesOnly(decodedPart(parsed.password), true)) {
    parsed.password = MASK;
    changed = true;
  }
  const params = [...parsed.searchParams.entries()];
  if (params.some(([name, value]) => isSensitiveEntry(name, value))) {
    const masked = new URLSearchParams();
    for (const [name, value] of params)
      masked.append(name, isSensitiveEntry(name, value) ? MASK : value);
    parsed.search = masked.toString().replace(/%2A/g, '*');
    changed = true;
  }
  // References elsewhere in the URL read back as written, not percent-encoded.
  return changed ? parsed.toString().replace(/%7B%7Bsecret\.(\w+)%7D%7D/g, '{{secret.$1}}') : url;
}

/**
 * A URL sent back on update with masked parts (as `maskUrl` shows it): each `****` (user name,
 * password, query parameter value) takes the stored value again, but only on the stored URL's
 * origin, and only where the stored URL has that part. Otherwise 400 naming `field`.
 */
export function restoreMaskedUrl(
  sent: string,
  stored: string | null | undefined,
  field: string,
): string {
  if (!sent.includes(MASK)) return sent;
  const next = parseUrl(sent);
  const previous = stored ? parseUrl(stored) : null;
  if (!next) return sent;
  const refuse = (why: string) =>
    AppException.validation([{ field, message: `${field} holds a masked value (****) ${why}` }]);
  if (!previous || next.origin !== previous.origin)
    throw refuse("but the URL's origin changed: send the credentials again in clear");
  if (next.username === MASK) {
    if (!previous.username) throw refuse('where the stored URL has no user name');
    next.username = previous.username;
  }
  if (next.password === MASK) {
    if (!previous.password) throw refuse('where the stored URL has no password');
    next.password = previous.password;
  }
  const params = [...next.searchParams.entries()];
  if (params.some(([, value]) => value === MASK)) {
    const storedValues = new Map<string, string[]>();
    for (const [name, value] of previous.searchParams.entries())
      storedValues.set(name, [...(storedValues.get(name) ?? []), value]);
    const restored = new URLSearchParams();
    for (const [name, value] of params) {
      if (value !== MASK) {
        restored.append(name, value);
        continue;
      }
      const original = storedValues.get(name)?.shift();
      if (original === undefined)
        throw refuse(`in query parameter ${name}, which the stored URL does not have`);
      restored.append(name, original);
    }
    next.search = restored.toString();
  }
  return next.toString();
}
