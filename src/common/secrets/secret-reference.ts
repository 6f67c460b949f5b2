/**
 * `{{secret.NAME}}` references: where a stored credential stands in for its value. Pure functions,
 * shared by validation (save time), masking (reads) and resolution (each outbound request).
 */

/** A secret's name: an upper-case letter, then up to 63 upper-case letters, digits or `_`. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/** One well-formed reference; the name is the first group. */
const REFERENCE = /\{\{secret\.([A-Z][A-Z0-9_]{0,63})\}\}/g;

/**
 * Anything that starts like a reference (`{{secret`, whatever the spacing or case). What is left
 * of a value once its well-formed references are taken out must not hold one: `{{secret.name}}`,
 * `{{ secret.X }}` or an unclosed `{{secret.X` is a mistake, never text meant for a receiver.
 */
const REFERENCE_START = /\{\{\s*secret\b/i;

/** The names a text references, each once, in order of first appearance. */
export function referencedNames(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1]))];
}

export function hasReference(text: string | null | undefined): boolean {
  return referencedNames(text).length > 0;
}

/** The text with each well-formed reference replaced by `by`. */
function withoutReferences(text: string, by = ''): string {
  return text.replace(REFERENCE, by);
}

/** Why a text's references are malformed, or null when they are all well-formed (or there are none). */
export function malformedReference(text: string): string | null {
  if (!REFERENCE_START.test(withoutReferences(text))) return null;
  return 'holds a malformed secret reference: write {{secret.NAME}}, NAME as in ^[A-Z][A-Z0-9_]{0,63}$';
}

/**
 * Whether a URL holds a reference in its scheme, host or port (user info, path, query and
 * fragment may hold them). The URL guard judges a URL's address without resolving anything, so
 * the address must be written in clear.
 */
export function referenceInOrigin(url: string): boolean {
  if (!hasReference(url) && !REFERENCE_START.test(url)) return false;
  const schemeEnd = url.indexOf('://');
  if (schemeEnd < 0) return REFERENCE_START.test(url.split(/[/?#]/, 1)[0]);
  if (REFERENCE_START.test(url.slice(0, schemeEnd))) return true;
  const rest = url.slice(schemeEnd + 3);
  const authority = rest.split(/[/?#]/, 1)[0];
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  return REFERENCE_START.test(hostAndPort) || hostAndPort.includes('{');
}

export function referenceInOriginMessage(field: string): string {
  return `${field} must not hold a secret reference in its scheme, host or port (the address is checked without resolving secrets)`;
}

/** `Bearer`, `Basic`, `Token`… followed by spaces: the scheme word that may precede a reference. */
const SCHEME_WORD = /^\s*(?:bearer|basic|digest|token|apikey|api-key|hmac)\s+/i;

/**
 * Whether a value is made only of references and plain text, so a read may show it as written:
 * it holds at least one reference, and what remains once they are taken out is either nothing
 * but an authentication scheme word and punctuation, or (for a name that says nothing about
 * secrets) text that `looksLikeCredential` does not flag. `Bearer {{secret.CRM_TOKEN}}` is shown;
 * `Bearer sk_live_… {{secret.X}}` still hides a credential in clear and is masked.
 */
export function madeOfReferencesAndPlainText(
  value: string,
  sensitiveName: boolean,
  looksLikeCredential: (text: string) => boolean,
): boolean {
  if (!hasReference(value) || malformedReference(value)) return false;
  const rest = withoutReferences(value, ' ');
  if (/^[\s\p{P}]*$/u.test(rest.replace(SCHEME_WORD, ''))) return true;
  return !sensitiveName && !looksLikeCredential(rest);
}

/**
 * Where a reference is resolved: a URL takes the value percent-encoded, a header or key as is (a
 * header's value must also keep to the header rules, `isSendableHeaderValue`).
 */
export type ReferenceContext = 'url' | 'header' | 'text';

/**
 * The text with each reference replaced by its value (`values` holds every name the text
 * references). In a URL the value is percent-encoded, so a `&` or `/` in it stays inside the
 * part it stands in.
 */
export function substituteReferences(
  text: string,
  values: ReadonlyMap<string, string>,
  context: ReferenceContext,
): string {
  return text.replace(REFERENCE, (_match, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`no value for secret ${name}`);
    return context === 'url' ? encodeURIComponent(value) : value;
  });
}

/** A field that may hold references, as the checks and `used_by` name it. */
export interface ReferencingField {
  /** Full path, e.g. `tool_execution_config.headers.Authorization`. */
  field: string;
  value: string | null | undefined;
  context: ReferenceContext;
  /**
   * Where the value is sent: the origin of the URL the field goes with (`originOf`), `provider`
   * for a provider key, null when that URL is not a valid one.
   */
  destination: string | null;
}

/** The reference-bearing fields of a header map, named under `prefix`, sent to `destination`. */
export function headerFields(
  prefix: string,
  headers: Record<string, string> | null | undefined,
  destination: string | null,
): ReferencingField[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({
    field: `${prefix}.${name}`,
    value,
    context: 'header' as const,
    destination,
  }));
}
