import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'vac_';

const API_KEY_SHAPE = /^vac_[A-Za-z0-9_-]{43}$/;

/** A new key: `vac_` + 32 random bytes, base64url (43 characters). */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Whether `presented` has the shape of a key this service issues. Anything else is no key at
 * all, answered without a database query.
 */
export function isWellFormedApiKey(presented: string): boolean {
  return API_KEY_SHAPE.test(presented);
}

/** Keys are stored and looked up by their SHA-256 (hex); 256 random bits need no slow hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What an operator sees to tell keys apart: `vac_` and four characters. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
