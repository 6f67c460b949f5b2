import request from 'supertest';
import { appSuite, type TestContext, type TestUser } from '../../utils/create-test-app';

const DASHBOARD = 'https://dash.example.com';
const OTHER = 'https://evil.example.net';

/** The browser's preflight before a PATCH carrying the key, a JSON body and a conditional header. */
const preflight = (ctx: TestContext, origin: string) =>
  // Not through ctx.http(): an OPTIONS preflight is not an API route of the document.
  request(ctx.app.getHttpServer())
    .options('/assistant/update/0d5a3c8e-0000-4000-8000-000000000000')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'PATCH')
    .set(
      'Access-Control-Request-Headers',
      'authorization,content-type,idempotency-key,if-match,if-none-match',
    );

const corsHeaders = (headers: Record<string, string>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

const list = (headerList: string | undefined) =>
  (headerList ?? '').split(',').map((h) => h.trim().toLowerCase());

/** `origin` gets no CORS header: its preflight is a 404, its call is answered without any. */
async function expectNoCors(ctx: TestContext, user: TestUser, origin: string): Promise<void> {
  const pre = await preflight(ctx, origin);
  expect(pre.status).toBe(404);
  expect(corsHeaders(pre.headers)).toEqual([]);
  const res = await ctx.http().get('/assistant/list').set(user.auth).set('Origin', origin);
  expect(res.status).toBe(200);
  expect(corsHeaders(res.headers)).toEqual([]);
}

describe('CORS (CORS_ORIGINS)', () => {
  describe('off by default', () => {
    const suite = appSuite({ users: ['user'], app: { env: { CORS_ORIGINS: undefined } } });

    it('answers a preflight with no CORS header (404), and a call with an Origin without any', async () => {
      await expectNoCors(suite.ctx, suite.user, DASHBOARD);
    });
  });

  describe('with a list of origins', () => {
    const suite = appSuite({
      users: ['user'],
      app: { env: { CORS_ORIGINS: `${DASHBOARD}, http://localhost:5173` } },
    });

    it('answers an allowed origin’s preflight with its origin, the methods and the headers the API takes', async () => {
      const pre = await preflight(suite.ctx, DASHBOARD);
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(pre.headers.vary).toMatch(/Origin/);
      expect(list(pre.headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['get', 'post', 'patch', 'delete']),
      );
      expect(list(pre.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining([
          'authorization',
          'content-type',
          'idempotency-key',
          'if-match',
          'if-none-match',
        ]),
      );
      expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
      const second = await preflight(suite.ctx, 'http://localhost:5173').expect(204);
      expect(second.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    });

    it('lets the allowed origin read the answer and its ETag, rate-limit and request-id headers', async () => {
      const res = await suite.ctx
        .http()
        .get('/assistant/list')
        .set(suite.user.auth)
        .set('Origin', DASHBOARD);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(list(res.headers['access-control-expose-headers'])).toEqual(
        expect.arrayContaining(['etag', 'retry-after', 'x-request-id']),
      );
    });

    it('gives a disallowed origin no CORS header at all, on the preflight and on the call', async () => {
      await expectNoCors(suite.ctx, suite.user, OTHER);
    });

    it('still asks the key of the real call: the preflight opens no route', async () => {
      const res = await suite.ctx.http().get('/assistant/list').set('Origin', DASHBOARD);
      expect(res.status).toBe(401);
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    });
  });

  describe('with *', () => {
    const suite = appSuite({ app: { env: { CORS_ORIGINS: '*' } } });

    it('answers any origin with *', async () => {
      const pre = await preflight(suite.ctx, OTHER).expect(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(list(pre.headers['access-control-allow-headers'])).toContain('authorization');
    });
  });
});
