import { ApiKeyEntity } from '../../../src/auth/api-key.entity';
import { KeyRevocations } from '../../../src/auth/key-revocations';
import { createTestApp, type TestContext } from '../../utils/create-test-app';
import { redisConfigured } from '../../utils/test-redis';

const redis = redisConfigured;

/** Keys are served from each API process's memory; a revocation must still reach every process. */
describe('API key cache (e2e)', () => {
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    a = await createTestApp();
    b = redis ? await createTestApp({ role: 'api' }) : a;
    // Both processes listen for revocations before the tests start.
    for (const ctx of [a, b]) {
      const deadline = Date.now() + 5000;
      while (!ctx.app.get(KeyRevocations).live && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  it('answers a known key from memory: no key query after the first request', async () => {
    const user = await a.newUser();
    const findOne = jest.spyOn(b.dataSource.getRepository(ApiKeyEntity), 'findOne');
    try {
      for (let i = 0; i < 5; i++) await b.http().get('/auth/check-key').set(user.auth).expect(200);
      expect(findOne).toHaveBeenCalledTimes(1);
    } finally {
      findOne.mockRestore();
    }
  });

  (redis ? it : it.skip)(
    'a key revoked through one process is refused by another within 500 ms, though that one had it cached',
    async () => {
      const user = await a.newUser();
      await b.http().get('/auth/check-key').set(user.auth).expect(200); // now cached in b
      await a.http().get('/auth/check-key').set(user.auth).expect(200);
      const keys = await a.http().get('/auth/keys').set(user.auth).expect(200);
      await a
        .http()
        .delete(`/auth/keys/${keys.body.data.items[0].api_key_id}`)
        .set(user.auth)
        .expect(200);
      const revokedAt = Date.now();
      let status = 200;
      while (Date.now() - revokedAt < 500) {
        status = (await b.http().get('/auth/check-key').set(user.auth)).status;
        if (status === 401) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(status).toBe(401);
      await a.http().get('/auth/check-key').set(user.auth).expect(401);
    },
  );

  it('a key revoked in this process is refused at once', async () => {
    const user = await a.newUser();
    await a.http().get('/auth/check-key').set(user.auth).expect(200);
    const keys = await a.http().get('/auth/keys').set(user.auth).expect(200);
    await a
      .http()
      .delete(`/auth/keys/${keys.body.data.items[0].api_key_id}`)
      .set(user.auth)
      .expect(200);
    await a.http().get('/auth/check-key').set(user.auth).expect(401);
  });
});
