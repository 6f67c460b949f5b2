import { ApiKeyEntity } from '../../../src/auth/api-key.entity';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_API_KEY}` };
const TTS_KEY = 'cartesia_live_key_scopes_e2e_0123456789';

/** `config` keys manage; only `runtime` keys read the runtime view (provider keys in clear). */
describe('API key scopes (e2e)', () => {
  const suite = appSuite();

  let counter = 0;
  /** A key for `email` (one user per email) with the given scopes, through the operator route. */
  async function keyFor(
    email: string,
    scopes?: unknown,
  ): Promise<TestUser & { data: Record<string, unknown> }> {
    const res = await suite.ctx
      .http()
      .post('/auth/create-key')
      .set(ADMIN)
      .send({ user_name: 'Scoped', user_email: email, ...(scopes === undefined ? {} : { scopes }) })
      .expect(200);
    const data = res.body.data as { api_key: string; user_id: string };
    return {
      userId: data.user_id,
      apiKey: data.api_key,
      auth: { Authorization: `Bearer ${data.api_key}` },
      data: res.body.data as Record<string, unknown>,
    };
  }
  const newEmail = () => {
    counter += 1;
    return `scopes-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
  };

  const assistantOf = async (user: TestUser): Promise<string> =>
    (
      await assistantApi(suite.ctx, user).create(
        assistantBody({ assistant_tts_config: { voice_id: 'v', api_key: TTS_KEY } }),
      )
    ).assistant_id;

  it('defaults to ["config"] and returns the scopes on create, check-key and the key list', async () => {
    const user = await keyFor(newEmail());
    expect(user.data.scopes).toEqual(['config']);
    const check = await suite.ctx.http().get('/auth/check-key').set(user.auth).expect(200);
    expect(check.body.data.scopes).toEqual(['config']);
    const keys = await suite.ctx.http().get('/auth/keys').set(user.auth).expect(200);
    expect(keys.body.data).toEqual({
      items: [expect.objectContaining({ scopes: ['config'] })],
      total: 1,
      page: 1,
      limit: 50,
    });
  });

  it('lists keys in the standard page envelope, and in the deprecated bare array for one release', async () => {
    const email = newEmail();
    await keyFor(email);
    const user = await keyFor(email);
    const page = await suite.ctx.http().get('/auth/keys?limit=1&page=2').set(user.auth).expect(200);
    expect(page.body.data).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(page.body.data.items).toHaveLength(1);
    expect(page.headers.deprecation).toBeUndefined();
    const legacy = await suite.ctx.http().get('/auth/keys?shape=array').set(user.auth).expect(200);
    expect(legacy.body.data).toHaveLength(2);
    expect(legacy.headers.deprecation).toBe('true');
    const bad = await suite.ctx.http().get('/auth/keys?shape=list').set(user.auth).expect(400);
    expect(bad.body.data.errors).toEqual([expect.objectContaining({ field: 'shape' })]);
  });

  it('a config key gets 403 in the envelope on the runtime view, and no secret', async () => {
    const user = await keyFor(newEmail(), ['config']);
    const assistantId = await assistantOf(user);
    const res = await suite.ctx.http().get(`/assistant/runtime/${assistantId}`).set(user.auth);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      message: "This API key lacks the 'runtime' scope this route needs",
      data: { code: 'forbidden' },
    });
    expect(res.text).not.toContain(TTS_KEY);
  });

  it('a runtime key reads the runtime view and nothing else', async () => {
    const email = newEmail();
    const manager = await keyFor(email, ['config']);
    const worker = await keyFor(email, ['runtime']);
    expect(worker.data.scopes).toEqual(['runtime']);
    const assistantId = await assistantOf(manager);

    const runtime = await suite.ctx
      .http()
      .get(`/assistant/runtime/${assistantId}`)
      .set(worker.auth);
    expect(runtime.status).toBe(200);
    expect(runtime.body.data.assistant_tts_config.api_key).toBe(TTS_KEY);

    const check = await suite.ctx.http().get('/auth/check-key').set(worker.auth).expect(200);
    expect(check.body.data.scopes).toEqual(['runtime']);

    const refused: [string, string, Record<string, unknown>?][] = [
      ['get', '/assistant/list'],
      ['get', `/assistant/details/${assistantId}`],
      ['patch', `/assistant/update/${assistantId}`, { assistant_name: 'taken' }],
      ['post', '/tool/create', { tool_name: 'x' }],
      ['get', '/inbound_context_strategy/list'],
      ['get', '/inbound/list'],
      ['get', '/logs'],
      ['get', '/auth/keys'],
      ['get', '/auth/webhook-secret'],
    ];
    for (const [method, path, body] of refused) {
      const req = suite.ctx.http()[method as 'get' | 'post' | 'patch'](path).set(worker.auth);
      const res = await (body ? req.send(body) : req);
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 403,
        message: "This API key lacks the 'config' scope this route needs",
      });
    }
  });

  it('a key holding both scopes may do both', async () => {
    const user = await keyFor(newEmail(), ['runtime', 'config']);
    expect(user.data.scopes).toEqual(['config', 'runtime']);
    const assistantId = await assistantOf(user);
    await suite.ctx.http().get(`/assistant/runtime/${assistantId}`).set(user.auth).expect(200);
  });

  it('scopes come through the in-memory key cache', async () => {
    const user = await keyFor(newEmail(), ['config']);
    const assistantId = await assistantOf(user); // the key is cached from here on
    const findOne = jest.spyOn(suite.ctx.dataSource.getRepository(ApiKeyEntity), 'findOne');
    try {
      for (let i = 0; i < 3; i++) {
        await suite.ctx.http().get(`/assistant/runtime/${assistantId}`).set(user.auth).expect(403);
        await suite.ctx.http().get(`/assistant/details/${assistantId}`).set(user.auth).expect(200);
      }
      expect(findOne).not.toHaveBeenCalled();
    } finally {
      findOne.mockRestore();
    }
  });

  it.each([[['admin']], [[]], [['config', 'config']], ['config']])(
    'rejects scopes %p with 400 naming the field',
    async (scopes) => {
      const res = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'A', user_email: newEmail(), scopes })
        .expect(400);
      const errors = res.body.data.errors as { field: string }[];
      expect(errors.length).toBeGreaterThan(0);
      expect(new Set(errors.map((e) => e.field))).toEqual(new Set(['scopes']));
    },
  );
});
