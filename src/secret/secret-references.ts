import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException, type FieldError } from '../common/errors/app.exception';
import { loggableError } from '../common/errors/loggable-error';
import {
  malformedReference,
  referenceInOrigin,
  referenceInOriginMessage,
  referencedNames,
  substituteReferences,
  type ReferenceContext,
  type ReferencingField,
} from '../common/secrets/secret-reference';
import { SecretCipher } from './secret-cipher';
import { LAST_USED_GRANULARITY_MS, SecretUseStamps } from './secret-use-stamps';
import { SecretRepository } from './secret.repository';

/** What an outbound request is sent with once its references are resolved. */
export type ResolvedRequest =
  | { ok: true; url: string; headers: Record<string, string>; secrets_used: string[] }
  | { ok: false; error: string; secrets_used: string[] };

/** A reference whose secret is gone (only a published version can still hold one). */
export class UnresolvedSecretError extends Error {
  constructor(readonly secretNames: string[]) {
    super(`secret ${secretNames.join(', ')} does not exist`);
    this.name = 'UnresolvedSecretError';
  }
}

/**
 * `{{secret.NAME}}` in the fields of other modules: checked when they are saved, resolved when
 * a request goes out. The values are read at each resolution, so a rotation reaches the next
 * request with no edit; they leave this class only inside the returned request.
 */
@Injectable()
export class SecretReferences {
  private readonly logger = new Logger(SecretReferences.name);

  constructor(
    private readonly secrets: SecretRepository,
    private readonly cipher: SecretCipher,
    private readonly stamps: SecretUseStamps,
  ) {}

  /**
   * 400 naming each field whose references are malformed, sit in a URL's scheme, host or port,
   * or name a secret the user does not have (the field and the secret both named).
   *
   * Given the saving transaction (`em`), the referenced secrets' rows stay locked until it ends,
   * so a concurrent `DELETE /secret/delete` cannot remove a secret between this check and the
   * save (it either sees the new reference, 409, or has removed the secret first, 400 here).
   */
  async assertUsable(
    userId: string,
    fields: ReferencingField[],
    em?: EntityManager,
  ): Promise<void> {
    const errors: FieldError[] = [];
    const wanted = new Map<string, string[]>();
    for (const { field, value, context } of fields) {
      if (!value) continue;
      const malformed = malformedReference(value);
      if (malformed) {
        errors.push({ field, message: `${field} ${malformed}` });
        continue;
      }
      if (context === 'url' && referenceInOrigin(value)) {
        errors.push({ field, message: referenceInOriginMessage(field) });
        continue;
      }
      for (const name of referencedNames(value))
        wanted.set(name, [...(wanted.get(name) ?? []), field]);
    }
    const names = [...wanted.keys()];
    const existing = em
      ? await this.secrets.holdNames(em, userId, names)
      : await this.secrets.existingNames(userId, names);
    for (const [name, inFields] of wanted) {
      if (existing.has(name)) continue;
      for (const field of inFields)
        errors.push({
          field,
          message: `${field} references secret ${name}, which you do not have (create it with POST /secret/create)`,
        });
    }
    if (errors.length) throw AppException.validation(errors);
  }

  /** The values of `names` (all of them, else `UnresolvedSecretError`), stamping `last_used_at`. */
  async valuesOf(userId: string, names: string[]): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    if (!names.length) return values;
    const rows = await this.secrets.findNamed(userId, names);
    const missing = names.filter((name) => !rows.some((row) => row.secret_name === name));
    if (missing.length) throw new UnresolvedSecretError(missing);
    for (const row of rows)
      values.set(
        row.secret_name,
        this.cipher.decrypt(row.value_encrypted, userId, row.secret_name),
      );
    const now = new Date();
    const staleBefore = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
    const stale = rows.filter((row) => !row.last_used_at || row.last_used_at < staleBefore);
    await this.secrets
      .touch(
        stale.map((row) => row.secret_id),
        now,
        staleBefore,
      )
      .catch((error: unknown) =>
        this.logger.warn({ err: loggableError(error) }, 'could not stamp last_used_at of secrets'),
      );
    return values;
  }

  /**
   * `names` were used by a request resolved from values read earlier (the routing table's): their
   * `last_used_at` is stamped within `SECRET_USE_STAMP_INTERVAL_MS`, in a batch, with no
   * statement on the caller's path.
   */
  usedFromCopy(userId: string, names: readonly string[]): void {
    this.stamps.used(userId, names);
  }

  /** One value with its references resolved (`UnresolvedSecretError` when a secret is gone). */
  async resolveText(
    userId: string,
    value: string,
    context: ReferenceContext = 'text',
  ): Promise<string> {
    const names = referencedNames(value);
    if (!names.length) return value;
    return substituteReferences(value, await this.valuesOf(userId, names), context);
  }

  /**
   * A request's URL and header values with their references resolved. A secret that no longer
   * exists is an `ok: false` naming it (the caller records it; nothing is sent).
   */
  async resolveRequest(
    userId: string,
    request: { url: string; headers?: Record<string, string> | null },
  ): Promise<ResolvedRequest> {
    const headers = request.headers ?? {};
    const names = [
      ...new Set([request.url, ...Object.values(headers)].flatMap((text) => referencedNames(text))),
    ];
    if (!names.length) return { ok: true, url: request.url, headers, secrets_used: [] };
    let values: Map<string, string>;
    try {
      values = await this.valuesOf(userId, names);
    } catch (error) {
      if (error instanceof UnresolvedSecretError)
        return { ok: false, error: error.message, secrets_used: names };
      throw error;
    }
    return {
      ok: true,
      url: substituteReferences(request.url, values, 'url'),
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name,
          substituteReferences(value, values, 'text'),
        ]),
      ),
      secrets_used: names,
    };
  }
}
