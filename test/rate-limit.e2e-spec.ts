import { createTestApp, type TestContext } from './utils/create-test-app';

describe('Rate limits and security headers (e2e)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => ctx.close());

  it('limits each API key separately and answers 429 in the envelope with Retry-After', async () => {
    // Key creation goes through the admin route, which is itself limited by IP: create both first.
    const a = await ctx.newUser();
    const b = await ctx.newUser();
    for (let i = 0; i < 5; i++) await ctx.http().get('/auth/check-key').set(a.auth).expect(200);
    const limited = await ctx.http().get('/auth/check-key').set(a.auth).expect(429);
    expect(limited.body).toEqual({ success: false, message: expect.any(String), data: null });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await ctx.http().get('/auth/check-key').set(b.auth).expect(200);
  });

  it('limits requests without a valid key by client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await ctx.http().get('/auth/check-key').set('Authorization', `Bearer vac_guess${i}`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
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
