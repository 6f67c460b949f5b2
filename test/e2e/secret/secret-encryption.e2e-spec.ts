/**
 * Secret values at rest: encrypted with SECRETS_ENCRYPTION_KEY, and a process whose key does not
 * decrypt them (or, with MySQL, that has none) does not start.
 */
import { randomBytes } from 'node:crypto';
import { secretApi } from '../../api/secret-api';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';

const withMysql = Boolean(process.env.DATABASE_URL);

describe('secret encryption at rest (e2e)', () => {
  let ctx: TestContext;
  let user: TestUser;
  const value = `plain-${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    await secretApi(ctx, user).create('AT_REST', value);
  });
  afterAll(() => ctx.close());

  it('stores the value encrypted, never in clear', async () => {
    const rows = await ctx.dataSource.query<{ value_encrypted: string }[]>(
      'SELECT value_encrypted FROM secrets WHERE user_id = ? AND secret_name = ?',
      [user.userId, 'AT_REST'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].value_encrypted).toMatch(/^v1\./);
    expect(rows[0].value_encrypted).not.toContain(value);
  });

  it('a wrong key is a clear start-up error', async () => {
    await expect(
      createTestApp({ env: { SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') } }),
    ).rejects.toThrow(/SECRETS_ENCRYPTION_KEY does not decrypt the stored secrets/);
  });

  (withMysql ? it : it.skip)('with MySQL, no key: the service refuses to start', async () => {
    await expect(createTestApp({ env: { SECRETS_ENCRYPTION_KEY: undefined } })).rejects.toThrow(
      /SECRETS_ENCRYPTION_KEY is required with MySQL.*openssl rand -base64 32/,
    );
  });

  (withMysql ? it.skip : it)(
    'embedded, no key: a second start reuses the key file and reads what the first wrote',
    async () => {
      const again = await createTestApp();
      try {
        await again
          .http()
          .patch('/secret/update/AT_REST')
          .set(user.auth)
          .send({ value: 'rotated' })
          .expect(200);
      } finally {
        await again.close();
      }
    },
  );
});
