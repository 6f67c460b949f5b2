import { generateApiKey } from '../../../src/auth/api-key';
import { ApiKeyEntity } from '../../../src/auth/api-key.entity';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { redisConfigured } from '../../utils/test-redis';

const LIMIT = 6;
const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_API_KEY}` };

describe('Rate limits and security headers (e2e)', () => {
  let ctx: TestContext;
  // Its own counters: in Redis mode every app of this run would otherwise share the IP bucket.
  const env = {
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    QUEUE_PREFIX: `vac-rl-${process.pid}-${Date.now()}`,
  };
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  let d: TestUser;
  let e: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({ env });
    // Key creation goes through the operator route, which has a bucket of its own.
    a = await ctx.newUser();
    b = await ctx.newUser();
    c = await ctx.newUser();
    d = await ctx.newUser();
    e = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('limits each API key separately and answers 429 in the envelope with Retry-After', async () => {
    for (let i = 0; i < LIMIT; i++) await ctx.http().get('/auth/check-key').set(a.auth).expect(200);
    const limited = await ctx.http().get('/auth/check-key').set(a.auth).expect(429);
    expect(limited.body).toEqual({
      success: false,
      message: expect.any(String),
      data: { code: 'rate_limited' },
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await ctx.http().get('/auth/check-key').set(b.auth).expect(200);
  });

  it('counts one budget per key across all routes, not one per route', async () => {
    const routes = [
      '/auth/check-key',
      '/auth/keys',
      '/assistant/list',
      '/tool/list',
      '/inbound/list',
      '/logs',
    ];
    for (const route of routes) await ctx.http().get(route).set(c.auth).expect(200);
    const res = await ctx.http().get('/inbound_context_strategy/list').set(c.auth);
    expect(res.status).toBe(429);
  });

  it('refuses a throttled request before reading its body', async () => {
    for (let i = 0; i < LIMIT; i++) await ctx.http().get('/auth/check-key').set(d.auth).expect(200);
    const res = await ctx
      .http()
      .post('/assistant/create')
      .set(d.auth)
      .set('Content-Type', 'application/json')
      .send('{"not json');
    expect(res.status).toBe(429);
  });

  (redisConfigured ? it : it.skip)(
    'shares one budget per key between API processes (Redis)',
    async () => {
      const other = await createTestApp({ env, role: 'api' });
      try {
        for (let i = 0; i < LIMIT - 2; i++)
          await ctx.http().get('/auth/check-key').set(e.auth).expect(200);
        for (let i = 0; i < 2; i++)
          await other.http().get('/auth/check-key').set(e.auth).expect(200);
        await other.http().get('/assistant/list').set(e.auth).expect(429);
        await ctx.http().get('/assistant/list').set(e.auth).expect(429);
      } finally {
        await other.close();
      }
    },
  );

  it('limits requests without a valid key by client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      statuses.push(
        (await ctx.http().get('/auth/check-key').set('Authorization', `Bearer vac_guess${i}`))
          .status,
      );
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMIT);
  });

  it('answers keys from a spent address without a database query, whatever their shape', async () => {
    const keys = ctx.dataSource.getRepository(ApiKeyEntity);
    const findOne = jest.spyOn(keys, 'findOne');
    try {
      // The client address has spent its budget in the test above.
      for (let i = 0; i < 10; i++) {
        await ctx
          .http()
          .get('/auth/check-key')
          .set('Authorization', `Bearer vac_fresh_guess_${i}`)
          .expect(429);
      }
      expect(findOne).not.toHaveBeenCalled();
      // Nor a key of the issued shape: the address pays for a lookup before it is made.
      const unknown = generateApiKey();
      for (let i = 0; i < 5; i++)
        await ctx
          .http()
          .get('/auth/check-key')
          .set('Authorization', `Bearer ${unknown}`)
          .expect(429);
      expect(findOne).not.toHaveBeenCalled();
    } finally {
      findOne.mockRestore();
    }
  });

  it('keeps a bucket of its own for the operator key, so guessing from the same address cannot lock it out', async () => {
    await ctx
      .http()
      .post('/auth/create-key')
      .set(ADMIN)
      .send({ user_name: 'Operator made', user_email: `op-${Date.now()}@example.com` })
      .expect(200);
  });

  describe('client addresses behind a proxy', () => {
    const junkFrom = (app: TestContext, forwardedFor: string) =>
      app
        .http()
        .get('/auth/check-key')
        .set('X-Forwarded-For', forwardedFor)
        .set('Authorization', 'Bearer vac_junk');

    async function statusesBehind(trustProxy: string | undefined): Promise<number[]> {
      const app = await createTestApp({
        env: {
          ...env,
          QUEUE_PREFIX: `${env.QUEUE_PREFIX}-${trustProxy ?? 'off'}`,
          TRUST_PROXY: trustProxy,
        },
      });
      try {
        for (let i = 0; i < LIMIT; i++) await junkFrom(app, '203.0.113.1').expect(401);
        return [
          (await junkFrom(app, '203.0.113.1')).status,
          (await junkFrom(app, '203.0.113.2')).status,
          (await junkFrom(app, '198.51.100.9, 203.0.113.3')).status,
        ];
      } finally {
        await app.close();
      }
    }

    it('with TRUST_PROXY=1, clients with different X-Forwarded-For have budgets of their own', async () => {
      expect(await statusesBehind('1')).toEqual([429, 401, 401]);
    });

    it('without TRUST_PROXY, X-Forwarded-For is ignored: every client of the proxy shares its budget', async () => {
      expect(await statusesBehind(undefined)).toEqual([429, 429, 429]);
    });
  });

  it('never limits /health', async () => {
    for (let i = 0; i < 8; i++) await ctx.http().get('/health').expect(200);
  });

  it('sends helmet security headers', async () => {
    const res = await ctx.http().get('/health').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
