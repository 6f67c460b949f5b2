import type { FieldError } from '../common/errors/app.exception';
import { isHeaderValue } from '../common/http/header-validators';
import { destinationText, originAllowed, originOf } from '../common/secrets/secret-origins';
import {
  malformedReference,
  referenceInOrigin,
  referenceInOriginMessage,
  referencedNames,
  substituteReferences,
  type ReferencingField,
} from '../common/secrets/secret-reference';

/*
 * The rules a `{{secret.NAME}}` reference keeps, when a field is saved and when a request goes out:
 * well-formed, never in a URL's origin, only towards the secret's `allowed_origins`, and, in a
 * header, a value the header rules accept. Pure: the callers read the secrets.
 */

/** A referenced secret as the checks need it: where it may go and (for header fields) its value. */
export interface SecretRule {
  allowed_origins: string[] | null;
  value?: string;
}

/** The fields' own problems (malformed, a reference in a URL's origin), and the fields each name is referenced from. */
export function fieldProblems(fields: ReferencingField[]): {
  errors: FieldError[];
  wanted: Map<string, ReferencingField[]>;
} {
  const errors: FieldError[] = [];
  const wanted = new Map<string, ReferencingField[]>();
  for (const field of fields) {
    const { value } = field;
    if (!value) continue;
    const malformed = malformedReference(value);
    if (malformed) errors.push({ field: field.field, message: `${field.field} ${malformed}` });
    else if (field.context === 'url' && referenceInOrigin(value))
      errors.push({ field: field.field, message: referenceInOriginMessage(field.field) });
    else
      for (const name of referencedNames(value))
        wanted.set(name, [...(wanted.get(name) ?? []), field]);
  }
  return { errors, wanted };
}

/** Where an unbound secret is bound by its first use: the first referencing field's destination. */
export function firstUseBinding(fields: ReferencingField[]): string[] | null {
  const destination = fields.find((field) => field.destination !== null)?.destination;
  return destination ? [destination] : null;
}

/** The 400s of one secret's references: a field it may not be sent from, a header it cannot be in. */
export function ruleErrors(
  name: string,
  rule: SecretRule,
  fields: ReferencingField[],
): FieldError[] {
  const errors: FieldError[] = [];
  for (const { field, context, destination } of fields) {
    if (!originAllowed(rule.allowed_origins, destination))
      errors.push({
        field,
        message:
          `${field} references secret ${name}, which may only be sent to ` +
          `${(rule.allowed_origins ?? []).map(destinationText).join(', ')}, not to ` +
          `${destinationText(destination)} (change its allowed_origins with PATCH /secret/update/${name} first)`,
      });
    else if (context === 'header' && rule.value !== undefined && !isHeaderValue(rule.value))
      errors.push({ field, message: headerValueMessage(field, name) });
  }
  return errors;
}

export function headerValueMessage(field: string, name: string): string {
  return `${field} references secret ${name}, whose value cannot be sent in a header (control characters, U+2028/U+2029, characters above U+00FF or over 4096 characters)`;
}

/** Why a request cannot go out with its references resolved; nothing is sent. */
export type RefusalReason = 'secret_not_found' | 'blocked' | 'config';

/** A request ready to send, or why not. */
export type ResolvedRequest =
  | { ok: true; url: string; headers: Record<string, string>; secrets_used: string[] }
  | { ok: false; reason: RefusalReason; error: string; secrets_used: string[] };

/** What a request is built from: its configured URL and headers (templates) and the call's own headers. */
export interface RequestTemplate {
  url: string;
  headers?: Record<string, string> | null;
  /**
   * Values of the call (room name, tool call id…), sent as they are: never templates, so a
   * `{{secret.X}}` in them stays text. They replace configured headers of the same name (any case).
   */
  callHeaders?: Record<string, string>;
}

/** A referenced secret as a request is resolved from it: its value and where it may go. */
export interface RoutedSecret {
  value: string;
  allowed_origins: string[] | null;
}

/** The names a request's URL and configured headers reference. */
export function requestNames({ url, headers }: RequestTemplate): string[] {
  const texts = [url, ...Object.values(headers ?? {})];
  return [...new Set(texts.flatMap((text) => referencedNames(text)))];
}

/**
 * The request with its references resolved from `secrets` (the names it references; an absent
 * one is a secret that is gone), in the one order every path keeps: every referenced secret must
 * exist and be allowed to go to the URL's origin, each resolved header must keep to the header
 * rules, and only then are the call's own headers added, as they are.
 */
export function resolveTemplate(
  request: RequestTemplate,
  secrets: ReadonlyMap<string, RoutedSecret>,
): ResolvedRequest {
  const names = requestNames(request);
  const refuse = (reason: RefusalReason, error: string): ResolvedRequest => ({
    ok: false,
    reason,
    error,
    secrets_used: names,
  });
  const missing = names.filter((name) => !secrets.has(name));
  if (missing.length)
    return refuse('secret_not_found', `secret ${missing.join(', ')} does not exist`);
  // A provider key (`provider`) never matches an origin: only the runtime read resolves it.
  const destination = originOf(request.url);
  const refused = names.filter(
    (name) => !originAllowed(secrets.get(name)?.allowed_origins, destination),
  );
  if (refused.length)
    return refuse(
      'blocked',
      `secret ${refused.join(', ')} may not be sent to ${destinationText(destination)} (not in its allowed_origins)`,
    );
  const values = new Map([...secrets].map(([name, secret]) => [name, secret.value]));
  const headers: Record<string, string> = {};
  for (const [header, template] of Object.entries(request.headers ?? {})) {
    const used = referencedNames(template);
    const value = used.length ? substituteReferences(template, values, 'header') : template;
    if (used.length && !isHeaderValue(value))
      return refuse(
        'config',
        `header "${header}" is not a valid header value once secret ${used.join(', ')} is resolved`,
      );
    headers[header] = value;
  }
  return {
    ok: true,
    url: substituteReferences(request.url, values, 'url'),
    headers: withCallHeaders(headers, request.callHeaders),
    secrets_used: names,
  };
}

/** `headers` with the call's own headers added, replacing configured ones of the same name (any case). */
function withCallHeaders(
  headers: Record<string, string>,
  callHeaders: Record<string, string> | undefined,
): Record<string, string> {
  if (!callHeaders) return headers;
  const replaced = new Set(Object.keys(callHeaders).map((name) => name.toLowerCase()));
  return {
    ...Object.fromEntries(
      Object.entries(headers).filter(([name]) => !replaced.has(name.toLowerCase())),
    ),
    ...callHeaders,
  };
}
