import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { AppException } from '../common/errors/app.exception';
import { loggableError } from '../common/errors/loggable-error';
import { originAllowed, PROVIDER } from '../common/secrets/secret-origins';
import {
  referencedNames,
  substituteReferences,
  type ReferencingField,
} from '../common/secrets/secret-reference';
import {
  fieldProblems,
  firstUseBinding,
  requestNames,
  resolveTemplate,
  ruleErrors,
  type RequestTemplate,
  type ResolvedRequest,
  type RoutedSecret,
} from './secret-reference-checks';
import { SecretCipher } from './secret-cipher';
import type { SecretEntity } from './secret.entity';
import { LAST_USED_GRANULARITY_MS, SecretUseStamps } from './secret-use-stamps';
import { SecretRepository } from './secret.repository';

export type { ResolvedRequest } from './secret-reference-checks';

/** A reference whose secret is gone (only a published version can still hold one). */
export class UnresolvedSecretError extends Error {
  constructor(readonly secretNames: string[]) {
    super(`secret ${secretNames.join(', ')} does not exist`);
    this.name = 'UnresolvedSecretError';
  }
}

/** A reference to a secret that may not be resolved where it stands (not a provider key). */
export class SecretNotAllowedError extends UnresolvedSecretError {
  constructor(secretNames: string[]) {
    super(secretNames);
    this.message = `secret ${secretNames.join(', ')}, which is not a provider key (its allowed_origins are not ["provider"])`;
    this.name = 'SecretNotAllowedError';
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
    private readonly audit: AuditTrail,
  ) {}

  /**
   * 400 naming each field whose references are malformed, sit in a URL's scheme, host or port,
   * name a secret the user does not have, go where the secret may not be sent (its
   * `allowed_origins`), or put in a header a value the header rules refuse (field and secret named).
   *
   * Given the saving transaction (`em`), the referenced secrets' rows stay locked until it ends,
   * so a concurrent `DELETE /secret/delete` cannot remove a secret between this check and the
   * save (it either sees the new reference, 409, or has removed the secret first, 400 here); and
   * a secret not bound yet is bound there to its first field's destination (audited).
   */
  async assertUsable(
    userId: string,
    fields: ReferencingField[],
    em?: EntityManager,
  ): Promise<void> {
    const { errors, wanted } = fieldProblems(fields);
    const names = [...wanted.keys()];
    const rows = em
      ? await this.secrets.holdNamed(em, userId, names)
      : await this.secrets.findNamed(userId, names);
    const unbound: SecretEntity[] = [];
    for (const [name, inFields] of wanted) {
      const row = rows.find((r) => r.secret_name === name);
      if (!row) {
        for (const { field } of inFields)
          errors.push({
            field,
            message: `${field} references secret ${name}, which you do not have (create it with POST /secret/create)`,
          });
        continue;
      }
      const allowed = row.allowed_origins ?? firstUseBinding(inFields);
      if (!row.allowed_origins && allowed) unbound.push({ ...row, allowed_origins: allowed });
      const inHeader = inFields.some((f) => f.context === 'header');
      const value = inHeader ? this.decrypt(userId, row) : undefined;
      errors.push(...ruleErrors(name, { allowed_origins: allowed, value }, inFields));
    }
    if (errors.length) throw AppException.validation(errors);
    if (em) for (const row of unbound) await this.bind(em, userId, row);
  }

  /** A secret's first use binds it to that use's destination, audited as a change of the secret. */
  private async bind(em: EntityManager, userId: string, row: SecretEntity): Promise<void> {
    await this.secrets.save(em, row);
    await this.audit.record(em, userId, {
      action: 'update',
      resource_type: 'secret',
      resource_id: row.secret_name,
      before: { allowed_origins: null },
      after: { allowed_origins: row.allowed_origins },
    });
  }

  private decrypt(userId: string, row: SecretEntity): string {
    return this.cipher.decrypt(row.value_encrypted, userId, row.secret_name);
  }

  /**
   * The user's secrets among `names`, decrypted, with where each may go; the rows found have
   * `last_used_at` stamped (a name absent from the map is a secret that is gone).
   */
  private async read(userId: string, names: string[]): Promise<Map<string, RoutedSecret>> {
    const found = new Map<string, RoutedSecret>();
    if (!names.length) return found;
    const rows = await this.secrets.findNamed(userId, names);
    for (const row of rows)
      found.set(row.secret_name, {
        value: this.decrypt(userId, row),
        allowed_origins: row.allowed_origins,
      });
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
    return found;
  }

  /**
   * `names` were used by a request resolved from values read earlier (the routing table's): their
   * `last_used_at` is stamped within `SECRET_USE_STAMP_INTERVAL_MS`, in a batch, with no
   * statement on the caller's path.
   */
  usedFromCopy(userId: string, names: readonly string[]): void {
    this.stamps.used(userId, names);
  }

  /**
   * A provider `api_key` with its references resolved, for the runtime read only:
   * `UnresolvedSecretError` when a secret is gone, `SecretNotAllowedError` when one is not a
   * provider key (its `allowed_origins` are not `["provider"]`).
   */
  async resolveProviderKey(userId: string, value: string): Promise<string> {
    const names = referencedNames(value);
    if (!names.length) return value;
    const secrets = await this.read(userId, names);
    const missing = names.filter((name) => !secrets.has(name));
    if (missing.length) throw new UnresolvedSecretError(missing);
    const refused = names.filter((n) => !originAllowed(secrets.get(n)!.allowed_origins, PROVIDER));
    if (refused.length) throw new SecretNotAllowedError(refused);
    const values = new Map([...secrets].map(([name, secret]) => [name, secret.value]));
    return substituteReferences(value, values, 'text');
  }

  /**
   * A request's URL and configured headers with their references resolved, then the call's own
   * headers added as they are (`resolveTemplate`). A secret that no longer exists, that may not go
   * to the URL's origin, or whose value a header cannot carry is an `ok: false` naming it (the
   * caller records it; nothing is sent).
   */
  async resolveRequest(userId: string, request: RequestTemplate): Promise<ResolvedRequest> {
    const names = requestNames(request);
    return resolveTemplate(request, await this.read(userId, names));
  }
}
