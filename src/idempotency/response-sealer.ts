import { SetMetadata } from '@nestjs/common';

export const HOLDS_CREDENTIAL = 'idempotency:holds-credential';

/**
 * A route whose response holds a credential shown once (a new API key, a signing secret): with
 * an `Idempotency-Key`, its kept response is stored sealed (`ResponseSealer`), never in clear, and
 * not kept at all while no sealer is registered.
 */
export const HoldsCredential = () => SetMetadata(HOLDS_CREDENTIAL, true);

/**
 * Encrypts a kept response and opens it again, bound to its caller and key. Registered on
 * `IdempotencyService.useSealer` by the module that owns the encryption key (the secret store),
 * so this lower module imports none.
 */
export interface ResponseSealer {
  seal(plain: string, ownerId: string, key: string): string;
  open(sealed: string, ownerId: string, key: string): string;
}

/** How a sealed response body starts; JSON text never does. */
export const SEALED_PREFIX = 'sealed:';
