import { Injectable, type OnModuleInit } from '@nestjs/common';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { SecretCipher } from './secret-cipher';

/**
 * Seals the kept responses that hold a credential (`HoldsCredential`: a new API key, a signing
 * secret) under `SECRETS_ENCRYPTION_KEY`, bound to the caller and the `Idempotency-Key`, so they
 * are never stored in clear. Registered on the idempotency service, which imports no secret code.
 */
@Injectable()
export class IdempotencySealer implements OnModuleInit {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly cipher: SecretCipher,
  ) {}

  onModuleInit(): void {
    const name = (key: string) => `idempotency:${key}`;
    this.idempotency.useSealer({
      seal: (plain, ownerId, key) => this.cipher.encrypt(plain, ownerId, name(key)),
      open: (sealed, ownerId, key) => this.cipher.decrypt(sealed, ownerId, name(key)),
    });
  }
}
