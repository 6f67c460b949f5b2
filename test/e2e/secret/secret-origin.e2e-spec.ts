import { ToolEntity } from '../../../src/tool/tool.entity';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';

const SECRET = 'Bearer origin-bound-secret-0123456789';

/** Stored header values travel with a URL only while its scheme, host and port stay. */
describe('Stored headers and a changed URL origin (e2e)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let home: CustomerServer;
  let elsewhere: CustomerServer;

  beforeAll(async () => {
    [ctx, home, elsewhere] = await Promise.all([
      createTestApp(),
      startCustomerServer(),
      startCustomerServer(),
    ]);
    user = await ctx.newUser();
    for (const server of [home, elsewhere]) {
      server.respond('/lookup', { status: 200, body: { context: { name: 'Ada' } } });
      server.respond('/moved', { status: 200, body: { context: { name: 'Ada' } } });
    }
  });
  afterAll(async () => {
    await ctx.close();
    await Promise.all([home.close(), elsewhere.close()]);
  });

  async function strategy(): Promise<string> {
    const res = await ctx
      .http()
      .post('/inbound_context_strategy/create')
      .set(user.auth)
      .send({
        strategy_name: 'Origin',
        strategy_type: 'webhook',
        strategy_config: {
          url: home.url('/lookup'),
          headers: { Authorization: SECRET, 'X-Tenant': 'acme' },
        },
      })
      .expect(200);
    return res.body.data.strategy_id as string;
  }
  const patchStrategy = (id: string, strategy_config: Record<string, unknown>) =>
    ctx
      .http()
      .patch(`/inbound_context_strategy/update/${id}`)
      .set(user.auth)
      .send({ strategy_config });
  const dryRun = (id: string) =>
    ctx.http().post(`/inbound_context_strategy/test/${id}`).set(user.auth).send({}).expect(200);

  it('a strategy URL moved to another origin alone is 400 naming the masked header, and nothing is sent', async () => {
    const id = await strategy();
    for (const headers of [undefined, { Authorization: '****' }, { authorization: '****' }]) {
      const res = await patchStrategy(id, { url: elsewhere.url('/lookup'), headers });
      expect(res.status).toBe(400);
      const name = headers ? Object.keys(headers)[0] : 'Authorization';
      expect(res.body.data.errors).toEqual([
        { field: `strategy_config.headers.${name}`, message: expect.stringContaining('origin') },
      ]);
    }
    await dryRun(id);
    expect(elsewhere.requests).toHaveLength(0);
    expect(home.requests.at(-1)?.headers.authorization).toBe(SECRET);
  });

  it('another port or scheme is another origin too', async () => {
    const id = await strategy();
    const port = new URL(home.baseUrl).port;
    for (const url of [
      home.url('/lookup').replace(`:${port}`, `:${Number(port) + 1}`),
      home.url('/lookup').replace('http:', 'https:'),
    ]) {
      await patchStrategy(id, { url }).expect(400);
    }
  });

  it('the new origin gets the header only when it is sent again in clear; plain headers carry over', async () => {
    const id = await strategy();
    const res = await patchStrategy(id, {
      url: elsewhere.url('/lookup'),
      headers: { Authorization: 'Bearer for-the-new-host' },
    }).expect(200);
    expect(res.body.data.strategy_config.headers).toEqual({
      Authorization: '****',
      'X-Tenant': 'acme',
    });
    await dryRun(id);
    const sent = elsewhere.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer for-the-new-host');
    expect(sent.headers['x-tenant']).toBe('acme');
  });

  it('null removes the header on a move', async () => {
    const id = await strategy();
    const res = await patchStrategy(id, {
      url: elsewhere.url('/lookup'),
      headers: { Authorization: null },
    }).expect(200);
    expect(res.body.data.strategy_config.headers).toEqual({ 'X-Tenant': 'acme' });
  });

  it('the same origin (another path) keeps the stored value, **** or not sent', async () => {
    const id = await strategy();
    await patchStrategy(id, { url: home.url('/moved') }).expect(200);
    await patchStrategy(id, { url: home.url('/moved'), headers: { Authorization: '****' } }).expect(
      200,
    );
    await dryRun(id);
    const sent = home.requests.at(-1)!;
    expect(sent.path).toBe('/moved');
    expect(sent.headers.authorization).toBe(SECRET);
  });

  describe('webhook tools', () => {
    async function tool(): Promise<string> {
      const res = await ctx
        .http()
        .post('/tool/create')
        .set(user.auth)
        .send({
          tool_name: 'origin_tool',
          tool_description: 'Moves.',
          tool_execution_type: 'webhook',
          tool_execution_config: {
            url: home.url('/tool'),
            headers: { 'X-Api-Key': SECRET, 'X-Tenant': 'acme' },
          },
        })
        .expect(200);
      return res.body.data.tool_id as string;
    }
    const storedHeaders = async (id: string) =>
      (
        (await ctx.dataSource.getRepository(ToolEntity).findOneByOrFail({ tool_id: id }))
          .tool_execution_config as { headers: Record<string, string> }
      ).headers;

    it('a url moved to another origin needs the masked headers again', async () => {
      const id = await tool();
      const res = await ctx
        .http()
        .patch(`/tool/update/${id}`)
        .set(user.auth)
        .send({ tool_execution_config: { url: elsewhere.url('/tool') } })
        .expect(400);
      expect(res.body.data.errors).toEqual([
        {
          field: 'tool_execution_config.headers.X-Api-Key',
          message: expect.stringContaining('origin'),
        },
      ]);
      await ctx
        .http()
        .patch(`/tool/update/${id}`)
        .set(user.auth)
        .send({
          tool_execution_config: { url: elsewhere.url('/tool'), headers: { 'X-Api-Key': '****' } },
        })
        .expect(400);
      expect(await storedHeaders(id)).toEqual({ 'X-Api-Key': SECRET, 'X-Tenant': 'acme' });

      await ctx
        .http()
        .patch(`/tool/update/${id}`)
        .set(user.auth)
        .send({
          tool_execution_config: { url: elsewhere.url('/tool'), headers: { 'X-Api-Key': 'k2' } },
        })
        .expect(200);
      expect(await storedHeaders(id)).toEqual({ 'X-Api-Key': 'k2', 'X-Tenant': 'acme' });
    });

    it('the same origin keeps the stored value', async () => {
      const id = await tool();
      await ctx
        .http()
        .patch(`/tool/update/${id}`)
        .set(user.auth)
        .send({
          tool_execution_config: { url: home.url('/other'), headers: { 'X-Api-Key': '****' } },
        })
        .expect(200);
      expect(await storedHeaders(id)).toEqual({ 'X-Api-Key': SECRET, 'X-Tenant': 'acme' });
    });
  });
});
