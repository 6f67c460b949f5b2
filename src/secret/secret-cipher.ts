import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

export const MAKE_KEY_HINT =
  "make one with: openssl rand -base64 32 (or node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\")";

/** The key is missing or unusable: the process must not start. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/**
 * AES-256-GCM over secret values. Each value gets a fresh 96-bit IV; the owner and the name are
 * authenticated with it (additional data), so a stored value copied onto another row does not
 * decrypt. Stored as `v1.<base64 of iv | tag | ciphertext>`.
 */
export class SecretCipher {
  private constructor(private readonly key: Buffer) {}

  static fromBase64(base64: string): SecretCipher {
    const key = Buffer.from(base64, 'base64');
    if (key.length !== 32 || key.toString('base64') !== base64)
      throw new SecretKeyError(
        `SECRETS_ENCRYPTION_KEY must be the base64 of 32 bytes; ${MAKE_KEY_HINT}`,
      );
    return new SecretCipher(key);
  }

  encrypt(plain: string, userId: string, name: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    cipher.setAAD(aad(userId, name));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${FORMAT}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** The value; throws when the key (or the row it is read from) is not the one it was written with. */
  decrypt(stored: string, userId: string, name: string): string {
    const [format, payload] = stored.split('.', 2);
    if (format !== FORMAT || !payload) throw new Error('unknown secret value format');
    const bytes = Buffer.from(payload, 'base64');
    const iv = bytes.subarray(0, IV_BYTES);
    const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv(ALGORITHM, this.key, iv);
    decipher.setAAD(aad(userId, name));
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}

const aad = (userId: string, name: string) => Buffer.from(`${userId}\n${name}`, 'utf8');

/** Where the embedded mode keeps its generated key: beside the SQLite file. */
export function keyFileOf(sqlitePath: string): string {
  return `${resolve(sqlitePath)}.secrets-key`;
}

/**
 * The key this process encrypts with: `SECRETS_ENCRYPTION_KEY`; without it, MySQL refuses to
 * start (one line saying how to make a key) and the embedded mode reads, or creates with mode
 * 0600, the key file beside its SQLite file.
 */
export function loadSecretCipher(config: Pick<AppConfig, 'database' | 'secrets'>): SecretCipher {
  const configured = config.secrets.encryptionKey;
  if (configured) return SecretCipher.fromBase64(configured);
  if (config.database.driver === 'mysql')
    throw new SecretKeyError(
      `SECRETS_ENCRYPTION_KEY is required with MySQL (it encrypts the secret store); ${MAKE_KEY_HINT}`,
    );
  const file = keyFileOf(config.database.sqlitePath);
  if (!existsSync(file)) {
    // 'wx': never overwrite a key another start wrote in the meantime.
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  const base64 = readFileSync(file, 'utf8').trim();
  try {
    return SecretCipher.fromBase64(base64);
  } catch {
    throw new SecretKeyError(
      `the key file ${file} does not hold the base64 of 32 bytes; ${MAKE_KEY_HINT}`,
    );
  }
}
