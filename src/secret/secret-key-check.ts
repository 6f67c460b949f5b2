import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { isUnreachable } from '../database/deferred-connection';
import { MAKE_KEY_HINT, SecretCipher, SecretKeyError } from './secret-cipher';
import { SecretRepository } from './secret.repository';

/** What the key check row holds, encrypted; bound to no owner (the additional data names the row). */
const KEY_CHECK_PLAIN = 'secrets-encryption-key-check';
const KEY_CHECK_AAD = ['', 'secret_key_check'] as const;

/** The key check row's value under `cipher`'s key. */
export const sealKeyCheck = (cipher: SecretCipher): string =>
  cipher.encrypt(KEY_CHECK_PLAIN, ...KEY_CHECK_AAD);

/** Whether `cipher`'s key is the one the key check row was written with. */
export function opensKeyCheck(cipher: SecretCipher, value: string): boolean {
  try {
    return cipher.decrypt(value, ...KEY_CHECK_AAD) === KEY_CHECK_PLAIN;
  } catch {
    return false;
  }
}

const wrongKey = () =>
  new SecretKeyError(
    'SECRETS_ENCRYPTION_KEY does not decrypt the stored secrets: start with the key they were written with ' +
      `(a new key needs the store re-encrypted, see docs/api.md "Secrets"); ${MAKE_KEY_HINT}`,
  );

/**
 * At start, after the migrations: this process's key must be the store's. The first process to
 * start writes a key check row under its key (after checking it against the newest secret of a
 * store older than the row); every later one must decrypt that row, whether or not any secret
 * exists yet. A wrong key stops the start with one clear line, rather than failing later at a
 * customer's request (a secret, a kept response, a signing secret written under another key).
 */
@Injectable()
export class SecretKeyCheck implements OnApplicationBootstrap {
  constructor(
    private readonly secrets: SecretRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.check();
    } catch (error) {
      // A worker may start while MySQL is down: the check runs at its next start.
      if (isUnreachable(error)) return;
      throw error;
    }
  }

  private async check(): Promise<void> {
    const stored = await this.secrets.keyCheck();
    if (stored !== null) {
      if (!opensKeyCheck(this.cipher, stored)) throw wrongKey();
      return;
    }
    const newest = await this.secrets.newest();
    if (newest) {
      try {
        this.cipher.decrypt(newest.value_encrypted, newest.user_id, newest.secret_name);
      } catch {
        throw wrongKey();
      }
    }
    await this.secrets.addKeyCheck(sealKeyCheck(this.cipher));
    // Another process may have written the row first, under its own key.
    const written = await this.secrets.keyCheck();
    if (written === null || !opensKeyCheck(this.cipher, written)) throw wrongKey();
  }
}
