/**
 * The store's key is checked at start whether or not a secret exists yet: the first process
 * writes a key check row under its key, and a process with another key does not start.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDatabase } from '../../../src/bootstrap/prepare-database';
import { createTestApp } from '../../utils/create-test-app';

const withMysql = Boolean(process.env.DATABASE_URL);

/** A store of its own, empty: a database with MySQL, an SQLite file embedded. */
async function emptyStore(): Promise<Record<string, string>> {
  const name = `vac_keycheck_${process.pid}_${Date.now() % 1e6}`;
  if (!withMysql)
    return { SQLITE_PATH: join(tmpdir(), `${name}.sqlite`), DB_MIGRATIONS_RUN: 'true' };
  const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).href;
  await prepareDatabase(url);
  return { DATABASE_URL: url, DB_MIGRATIONS_RUN: 'true' };
}

const aKey = () => randomBytes(32).toString('base64');

describe('the encryption key checked against an empty store (e2e)', () => {
  it('refuses a second key before any secret exists, and starts again with the first', async () => {
    const store = await emptyStore();
    const first = aKey();
    await (await createTestApp({ env: { ...store, SECRETS_ENCRYPTION_KEY: first } })).close();

    await expect(
      createTestApp({ env: { ...store, SECRETS_ENCRYPTION_KEY: aKey() } }),
    ).rejects.toThrow(/SECRETS_ENCRYPTION_KEY does not decrypt the stored secrets/);

    await (await createTestApp({ env: { ...store, SECRETS_ENCRYPTION_KEY: first } })).close();
  });
});
