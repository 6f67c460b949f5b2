import { writeFileSync } from 'node:fs';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { lockForWrite, runTransaction } from '../database/transaction';
import { keyFileOf, loadSecretCipher, SecretCipher, SecretKeyError } from './secret-cipher';
import { opensKeyCheck, sealKeyCheck } from './secret-key-check';
import { SecretEntity } from './secret.entity';
import { SecretRepository } from './secret.repository';

/** The variable that holds the key the store is re-encrypted under. */
export const NEW_KEY_VARIABLE = 'SECRETS_ENCRYPTION_KEY_NEW';

/** What a re-encryption did: counts only, never a value. */
export interface RekeyOutcome {
  /** Secrets in the store. */
  total: number;
  /** Re-encrypted under the new key by this run. */
  reencrypted: number;
  /** Already under the new key (an earlier run): left as they are. */
  unchanged: number;
  /** The other sealed values, by what they are. */
  others: { what: string; total: number; reencrypted: number }[];
}

/**
 * Another module's values sealed with the store's key (e.g. event subscriptions' signing
 * secrets), re-encrypted in the rekey's transaction with `reseal`: the composition root (the
 * CLI) passes them in, so this module reads no other module's table.
 */
export interface SealedValues {
  /** What the values are, in the printed count (plural). */
  what: string;
  /** Re-encrypts every value not yet under `next`; answers how many it changed and held. */
  rekey(
    em: EntityManager,
    current: SecretCipher,
    next: SecretCipher,
  ): Promise<{ total: number; reencrypted: number }>;
}

/**
 * `stored` (sealed with `aad`) under `next`, or null when it is already. A value neither key
 * opens stops the run: `what` names it (never its value).
 */
export function reseal(
  current: SecretCipher,
  next: SecretCipher,
  stored: string,
  aad: [userId: string, name: string],
  what: string,
): string | null {
  try {
    next.decrypt(stored, ...aad);
    return null;
  } catch {
    // not yet under the new key
  }
  let plain: string;
  try {
    plain = current.decrypt(stored, ...aad);
  } catch {
    throw new SecretKeyError(
      `${what} decrypts with neither SECRETS_ENCRYPTION_KEY nor ${NEW_KEY_VARIABLE}; nothing was changed`,
    );
  }
  return next.encrypt(plain, ...aad);
}

/** A table's column of values sealed with the store's key, for `resealRows`. */
export interface SealedColumn<Row extends ObjectLiteral> {
  entity: EntityTarget<Row>;
  /** The primary key's property: rows are locked and updated by it, in its order. */
  id: keyof Row & string;
  column: keyof Row & string;
  aad(row: Row): [userId: string, name: string];
  /** How a row a run cannot open is named (never its value). */
  what(row: Row): string;
}

/**
 * Locks every row of `table` (for the caller's transaction) and re-seals its column from
 * `current` to `next` with `reseal`; `updated_at` stays, since the value is the same.
 */
export async function resealRows<Row extends ObjectLiteral>(
  em: EntityManager,
  current: SecretCipher,
  next: SecretCipher,
  table: SealedColumn<Row>,
): Promise<{ total: number; reencrypted: number }> {
  const rows = await lockForWrite(
    em.getRepository(table.entity).createQueryBuilder('r').orderBy(`r.${table.id}`, 'ASC'),
  ).getMany();
  let reencrypted = 0;
  for (const row of rows) {
    const stored = row[table.column] as string;
    const value = reseal(current, next, stored, table.aad(row), table.what(row));
    if (value === null) continue;
    await em
      .createQueryBuilder()
      .update(table.entity)
      .set({ [table.column]: value, updated_at: () => 'updated_at' })
      .where({ [table.id]: row[table.id] })
      .execute();
    reencrypted += 1;
  }
  return { total: rows.length, reencrypted };
}

/**
 * Re-encrypts every stored value from `current` to `next`, in one transaction with every row
 * locked: all or nothing. A value that `next` already decrypts is left alone, so a second run
 * changes nothing. A value neither key decrypts stops the run, naming the secret (never its
 * value), with nothing changed. `version` and `updated_at` stay: the values are the same.
 */
export function rekeySecrets(
  dataSource: DataSource,
  current: SecretCipher,
  next: SecretCipher,
  sealed: readonly SealedValues[] = [],
): Promise<RekeyOutcome> {
  return runTransaction(dataSource, async (em) => {
    const { total, reencrypted } = await resealRows(em, current, next, {
      entity: SecretEntity,
      id: 'secret_id',
      column: 'value_encrypted',
      aad: (row) => [row.user_id, row.secret_name],
      what: (row) => `secret ${row.secret_name} (user ${row.user_id})`,
    });
    await rekeyKeyCheck(new SecretRepository(dataSource), em, current, next);
    const others: RekeyOutcome['others'] = [];
    for (const values of sealed) {
      const done = await values.rekey(em, current, next);
      others.push({ what: values.what, ...done });
    }
    return { total, reencrypted, unchanged: total - reencrypted, others };
  });
}

/** The key check row follows the store to the new key (a row neither key opens stops the run). */
async function rekeyKeyCheck(
  secrets: SecretRepository,
  em: EntityManager,
  current: SecretCipher,
  next: SecretCipher,
): Promise<void> {
  const stored = await secrets.keyCheck(em);
  if (stored === null || opensKeyCheck(next, stored)) return;
  if (!opensKeyCheck(current, stored))
    throw new SecretKeyError(
      `the key check row decrypts with neither SECRETS_ENCRYPTION_KEY nor ${NEW_KEY_VARIABLE}; nothing was changed`,
    );
  await secrets.replaceKeyCheck(em, sealKeyCheck(next));
}

/**
 * `secrets:rekey`: the store moves from the process's key (SECRETS_ENCRYPTION_KEY, or the
 * embedded key file) to SECRETS_ENCRYPTION_KEY_NEW. When the old key came from the embedded key
 * file, the file then holds the new key. Returns the lines to print (no value, no key).
 */
export async function runSecretRekey(
  dataSource: DataSource,
  config: Pick<AppConfig, 'database' | 'secrets'>,
  newKey: string | undefined,
  sealed: readonly SealedValues[] = [],
): Promise<string[]> {
  if (!newKey)
    throw new SecretKeyError(`${NEW_KEY_VARIABLE} is required (the key to re-encrypt under)`);
  let next: SecretCipher;
  try {
    next = SecretCipher.fromBase64(newKey);
  } catch (error) {
    throw new SecretKeyError(
      (error as Error).message.replace(/^SECRETS_ENCRYPTION_KEY/, NEW_KEY_VARIABLE),
    );
  }
  const outcome = await rekeySecrets(dataSource, loadSecretCipher(config), next, sealed);
  const lines = [
    `secrets:rekey: ${outcome.reencrypted} of ${outcome.total} secret(s) re-encrypted, ${outcome.unchanged} already under the new key`,
    ...outcome.others.map(
      (o) => `secrets:rekey: ${o.reencrypted} of ${o.total} ${o.what} re-encrypted`,
    ),
  ];
  if (!config.secrets.encryptionKey && config.database.driver !== 'mysql') {
    const file = keyFileOf(config.database.sqlitePath);
    writeFileSync(file, `${newKey}\n`, { mode: 0o600 });
    lines.push(`the key file ${file} now holds the new key`);
  } else {
    lines.push(
      `start the service with SECRETS_ENCRYPTION_KEY set to the value of ${NEW_KEY_VARIABLE}`,
    );
  }
  return lines;
}
