import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../config/app-config';
import { SecretCipher, SecretKeyError, keyFileOf, loadSecretCipher } from './secret-cipher';

const newKey = () => randomBytes(32).toString('base64');

describe(SecretCipher.name, () => {
  const cipher = SecretCipher.fromBase64(newKey());

  it('round-trips a value, with a fresh IV each time and no clear text stored', () => {
    const a = cipher.encrypt('crm-token-ü-1', 'user-1', 'CRM_TOKEN');
    const b = cipher.encrypt('crm-token-ü-1', 'user-1', 'CRM_TOKEN');
    expect(a).toMatch(/^v1\./);
    expect(a).not.toBe(b);
    expect(a).not.toContain('crm-token');
    expect(cipher.decrypt(a, 'user-1', 'CRM_TOKEN')).toBe('crm-token-ü-1');
  });

  it('refuses another key, another owner or name, and a tampered value', () => {
    const stored = cipher.encrypt('v', 'user-1', 'A');
    expect(() => SecretCipher.fromBase64(newKey()).decrypt(stored, 'user-1', 'A')).toThrow();
    expect(() => cipher.decrypt(stored, 'user-2', 'A')).toThrow();
    expect(() => cipher.decrypt(stored, 'user-1', 'B')).toThrow();
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => cipher.decrypt(`v1.${bytes.toString('base64')}`, 'user-1', 'A')).toThrow();
  });

  it('takes only the base64 of 32 bytes', () => {
    expect(() => SecretCipher.fromBase64(randomBytes(16).toString('base64'))).toThrow(
      SecretKeyError,
    );
    expect(() => loadAppConfig({ SECRETS_ENCRYPTION_KEY: 'not-a-key' })).toThrow(
      /SECRETS_ENCRYPTION_KEY.*openssl rand -base64 32/,
    );
  });

  it('with MySQL and no key, refuses with one line saying how to make one', () => {
    const config = loadAppConfig({
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/x',
    });
    expect(() => loadSecretCipher(config)).toThrow(
      /^SECRETS_ENCRYPTION_KEY is required with MySQL.*openssl rand -base64 32/,
    );
  });

  it('embedded without a key: creates a key file beside the SQLite file, mode 0600, and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vac-key-'));
    const config = loadAppConfig({ SQLITE_PATH: join(dir, 'db.sqlite') });
    const first = loadSecretCipher(config);
    const file = keyFileOf(config.database.sqlitePath);
    expect(file).toBe(join(dir, 'db.sqlite.secrets-key'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8');
    const stored = first.encrypt('v', 'u', 'N');
    expect(loadSecretCipher(config).decrypt(stored, 'u', 'N')).toBe('v');
    expect(readFileSync(file, 'utf8')).toBe(key);
  });
});
