import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { isUnreachable } from '../database/deferred-connection';
import { MAKE_KEY_HINT, SecretCipher, SecretKeyError } from './secret-cipher';
import { SecretRepository } from './secret.repository';

/**
 * At start, after the migrations: the newest stored secret must decrypt with this process's key.
 * A wrong key stops the start with one clear line, rather than resolving references to garbage
 * (or failing) at a customer's request. An empty store accepts any key.
 */
@Injectable()
export class SecretKeyCheck implements OnApplicationBootstrap {
  constructor(
    private readonly secrets: SecretRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A worker may start while MySQL is down: the check runs at its next start.
    const row = await this.secrets.newest().catch(skipWhenUnreachable);
    if (!row) return;
    try {
      this.cipher.decrypt(row.value_encrypted, row.user_id, row.secret_name);
    } catch {
      throw new SecretKeyError(
        'SECRETS_ENCRYPTION_KEY does not decrypt the stored secrets: start with the key they were written with ' +
          `(a new key needs the store re-encrypted, see docs/api.md "Secrets"); ${MAKE_KEY_HINT}`,
      );
    }
  }
}

function skipWhenUnreachable(error: unknown): null {
  if (isUnreachable(error)) return null;
  throw error;
}
