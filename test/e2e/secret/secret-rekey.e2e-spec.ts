/**
 * `npm run cli -- secrets:rekey`: every stored secret value re-encrypted from the current key to
 * SECRETS_ENCRYPTION_KEY_NEW, in one transaction, idempotent, printing counts only.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { prepareDatabase } from '../../../src/bootstrap/prepare-database';
import { subscriptionSecretName } from '../../../src/event-subscription/event-delivery.service';
import { EventSubscriptionEntity } from '../../../src/event-subscription/event-subscription.entity';
import { keyFileOf, SecretCipher } from '../../../src/secret/secret-cipher';
import { SecretEntity } from '../../../src/secret/secret.entity';
import { dataOf } from '../../api/envelope';
import { secretApi } from '../../api/secret-api';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';

const withMysql = Boolean(process.env.DATABASE_URL);

/**
 * With MySQL, a database of the suite's own: a rekey changes every stored value, and the other
 * files of the run, booting beside it on the shared database, must find it under their key.
 * Embedded, each file has its own SQLite file already.
 */
const ownDatabase = `vac_rekey_${process.pid}_${Date.now() % 1e6}`;
const ownEnv: Record<string, string> = withMysql
  ? {
      DATABASE_URL: Object.assign(new URL(process.env.DATABASE_URL!), {
        pathname: `/${ownDatabase}`,
      }).href,
      DB_MIGRATIONS_RUN: 'true',
    }
  : {};

/** The key the suite's app encrypts with: the env's with MySQL, the key file's embedded. */
const currentKey = () =>
  withMysql
    ? process.env.SECRETS_ENCRYPTION_KEY!
    : readFileSync(keyFileOf(process.env.SQLITE_PATH!), 'utf8').trim();

function rekey(newKey: string) {
  const run = spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'src/cli.ts', 'secrets:rekey'],
    {
      env: { ...process.env, ...ownEnv, SECRETS_ENCRYPTION_KEY_NEW: newKey, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('npm run cli -- secrets:rekey', () => {
  let ctx: TestContext;
  let user: TestUser;
  let oldKey: string;
  const newKey = randomBytes(32).toString('base64');
  const values = [`rekey-a-${randomUUID()}`, `rekey-b-${randomUUID()}`];

  let subscription: { subscription_id: string; secret: string };

  const rows = () => ctx.dataSource.getRepository(SecretEntity).findBy({ user_id: user.userId });

  beforeAll(async () => {
    if (withMysql) await prepareDatabase(ownEnv.DATABASE_URL);
    ctx = await createTestApp({ env: ownEnv });
    user = await ctx.newUser();
    await secretApi(ctx, user).create('REKEY_A', values[0]);
    await secretApi(ctx, user).create('REKEY_B', values[1]);
    subscription = await dataOf<{ subscription_id: string; secret: string }>(
      'POST /event-subscription/create',
      ctx
        .http()
        .post('/event-subscription/create')
        .set(user.auth)
        .send({ url: 'https://93.184.215.14/hooks', events: ['config.changed'] }),
    );
    oldKey = currentKey();
  }, 120_000);

  afterAll(async () => {
    if (withMysql) await ctx.dataSource.query(`DROP DATABASE \`${ownDatabase}\``);
    await ctx.close();
  });

  it('a value neither key decrypts stops the run with nothing changed, naming the secret only', async () => {
    const stranger = SecretCipher.fromBase64(randomBytes(32).toString('base64'));
    const repo = ctx.dataSource.getRepository(SecretEntity);
    const before = await rows();
    const bad = repo.create({
      secret_id: randomUUID(),
      user_id: user.userId,
      secret_name: 'REKEY_BAD',
      value_encrypted: stranger.encrypt('bad-value', user.userId, 'REKEY_BAD'),
      version: 1,
      last_used_at: null,
    });
    await repo.insert(bad);
    try {
      const run = rekey(newKey);
      expect(run.status).toBe(1);
      expect(run.out).toContain(`secret REKEY_BAD (user ${user.userId}) decrypts with neither`);
      expect(run.out).not.toContain('bad-value');
      expect(await rows()).toEqual(expect.arrayContaining(before));
    } finally {
      await repo.delete({ secret_id: bad.secret_id });
    }
  }, 150_000);

  it('re-encrypts every value under the new key, printing counts only; a second run changes nothing', async () => {
    const first = rekey(newKey);
    expect(first).toEqual({
      status: 0,
      out: expect.stringMatching(/^secrets:rekey: (\d+) of \1 secret\(s\) re-encrypted, 0 already/),
    });
    for (const secret of [...values, oldKey, newKey, subscription.secret])
      expect(first.out).not.toContain(secret);
    expect(first.out).toContain('secrets:rekey: 1 of 1 event subscription secret(s) re-encrypted');

    const next = SecretCipher.fromBase64(newKey);
    const stored = await rows();
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      const plain = next.decrypt(row.value_encrypted, row.user_id, row.secret_name);
      expect(plain).toBe(row.secret_name === 'REKEY_A' ? values[0] : values[1]);
      expect(row.version).toBe(1);
    }

    // The subscription's signing secret moved with the store.
    const [sealed] = await ctx.dataSource
      .getRepository(EventSubscriptionEntity)
      .findBy({ subscription_id: subscription.subscription_id });
    expect(
      next.decrypt(
        sealed.secret,
        user.userId,
        subscriptionSecretName(subscription.subscription_id),
      ),
    ).toBe(subscription.secret);

    const second = rekey(newKey);
    expect(second).toEqual({
      status: 0,
      out: expect.stringMatching(/^secrets:rekey: 0 of (\d+) secret\(s\) re-encrypted, \1 already/),
    });
    expect((await rows()).map((row) => row.value_encrypted).sort()).toEqual(
      stored.map((row) => row.value_encrypted).sort(),
    );
  }, 300_000);

  it('the service then starts with the new key, and no longer with the old one', async () => {
    if (!withMysql) expect(currentKey()).toBe(newKey); // the embedded key file was replaced
    const again = await createTestApp({ env: { ...ownEnv, SECRETS_ENCRYPTION_KEY: newKey } });
    try {
      await secretApi(again, user).rotate('REKEY_A', 'rotated-after-rekey');
    } finally {
      await again.close();
    }
    await expect(
      createTestApp({ env: { ...ownEnv, SECRETS_ENCRYPTION_KEY: oldKey } }),
    ).rejects.toThrow(/SECRETS_ENCRYPTION_KEY does not decrypt the stored secrets/);
  }, 120_000);
});
