import { randomUUID } from 'node:crypto';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { SecretEntity } from '../../../src/secret/secret.entity';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { secretApi } from '../../api/secret-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { webhookToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

/**
 * A secret goes only where it was meant to: its `allowed_origins`, bound by its first use when not
 * given. Refused when a field from another origin is saved (400 naming field and secret), never
 * resolved for another origin when sent (dry run, tool call, replay: `blocked`, nothing sent).
 */
describe('secret allowed_origins (e2e)', () => {
  let ctx: TestContext;
  let home: CustomerServer;
  let attacker: CustomerServer;
  let producer: CallProducer;
  let user: TestUser;

  beforeAll(async () => {
    [ctx, home, attacker] = await Promise.all([
      createTestApp(),
      CustomerServer.start(),
      CustomerServer.start(),
    ]);
    // Two origins on one machine: the same address under another name is another origin.
    producer = new CallProducer(ctx);
    user = await ctx.newUser();
    home.respondByDefault({ status: 200, body: { context: { name: 'Ada' } } });
    attacker.respondByDefault({ status: 200, body: { context: { name: 'Eve' } } });
  });
  afterAll(async () => {
    await producer?.close();
    await ctx?.close();
    await Promise.all([home?.close(), attacker?.close()]);
  });

  const http = () => ctx.http();
  const errorsOf = (body: { data?: { errors?: { field: string; message: string }[] } }) =>
    body.data?.errors ?? [];
  const origin = (server: CustomerServer) => new URL(server.baseUrl).origin;

  /** Where a secret may go, set under the API (as a secret bound elsewhere before this check). */
  const setOrigins = (name: string, origins: string[]) =>
    ctx.dataSource
      .getRepository(SecretEntity)
      .update({ user_id: user.userId, secret_name: name }, { allowed_origins: origins });

  it('binds a secret to its first use and refuses the issue’s attack at save, naming field and secret', async () => {
    await secretApi(ctx, user).create('PK', 'sk-provider-value-123');
    await secretApi(ctx, user).create('S1', 'crm-value-123');
    await assistantApi(ctx, user).create(
      assistantBody({ assistant_tts_config: { voice_id: 'v', api_key: '{{secret.PK}}' } }),
    );
    await toolApi(ctx, user).create(
      webhookToolBody({ url: home.url('/tool'), headers: { Authorization: '{{secret.S1}}' } }),
    );
    expect((await secretApi(ctx, user).details('PK')).allowed_origins).toEqual(['provider']);
    expect((await secretApi(ctx, user).details('S1')).allowed_origins).toEqual([origin(home)]);

    const res = await http()
      .post('/inbound_context_strategy/create')
      .set(user.auth)
      .send(
        strategyBody(`${attacker.url('/c')}?pk={{secret.PK}}`, {
          headers: { 'X-Leak': '{{secret.S1}}' },
        }),
      )
      .expect(400);
    const errors = errorsOf(res.body);
    expect(errors.map((e) => e.field).sort()).toEqual([
      'strategy_config.headers.X-Leak',
      'strategy_config.url',
    ]);
    expect(errors.find((e) => e.field === 'strategy_config.url')!.message).toContain('secret PK');
    expect(errors.find((e) => e.field === 'strategy_config.headers.X-Leak')!.message).toContain(
      'secret S1',
    );
    expect(attacker.requests).toHaveLength(0);
  });

  it('refuses moving a strategy that references a secret to another origin', async () => {
    const created = await http()
      .post('/inbound_context_strategy/create')
      .set(user.auth)
      .send(strategyBody(home.url('/ctx'), { headers: { 'X-Auth': '{{secret.S1}}' } }))
      .expect(200);
    const id = created.body.data.strategy_id as string;
    const res = await http()
      .patch(`/inbound_context_strategy/update/${id}`)
      .set(user.auth)
      .send({ strategy_config: { url: attacker.url('/ctx') } })
      .expect(400);
    expect(errorsOf(res.body).map((e) => e.field)).toEqual(['strategy_config.headers.X-Auth']);
    expect(errorsOf(res.body)[0].message).toContain('secret S1');
  });

  it('the dry run never resolves a secret for another origin: blocked, nothing sent', async () => {
    await secretApi(ctx, user).create('DRY', 'dry-value-123');
    const created = await http()
      .post('/inbound_context_strategy/create')
      .set(user.auth)
      .send(
        strategyBody(`${attacker.url('/dry')}?pk={{secret.DRY}}`, {
          headers: { 'X-Leak': '{{secret.DRY}}' },
        }),
      )
      .expect(200);
    // As a secret bound to another origin before it was referenced here (e.g. by the migration).
    await setOrigins('DRY', [origin(home)]);
    const res = await http()
      .post(`/inbound_context_strategy/test/${created.body.data.strategy_id}`)
      .set(user.auth)
      .send({})
      .expect(200);
    expect(res.body.data.status).toBe('error');
    expect(res.body.data.error_class).toBe('blocked');
    expect(attacker.requestsTo('/dry')).toHaveLength(0);
    expect(res.text).not.toContain('dry-value-123');
  });

  it('a tool call and its replay never resolve a secret for another origin, and each writes its entry', async () => {
    await secretApi(ctx, user).create('TOOL_KEY', 'tool-value-123');
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody({ url: attacker.url('/t'), headers: { 'X-Key': '{{secret.TOOL_KEY}}' } }),
    );
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    // A first call goes (the secret is bound to this origin), so there is an entry to replay.
    const room = `room-${randomUUID()}`;
    const call = { tool_id: toolId, assistant_id: assistantId, room_name: room, arguments: {} };
    expect((await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, call)).status).toBe('success');
    expect(attacker.requestsTo('/t')).toHaveLength(1);
    await setOrigins('TOOL_KEY', [origin(home)]);

    const refused = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, call);
    expect(refused).toMatchObject({ status: 'error', error_class: 'blocked' });
    const logs = (await logsApi(ctx, user).page({ room_name: room })).logs;
    const sent = logs.find((e) => e.status === 'success')!;
    expect(logs.find((e) => e.error_class === 'blocked')).toBeDefined();

    const replayed = await http().post(`/logs/replay/${sent.log_id}`).set(user.auth).expect(200);
    expect(replayed.body.data).toMatchObject({ error_class: 'blocked', replay_of: sent.log_id });
    expect(attacker.requestsTo('/t')).toHaveLength(1);
  });

  it('changes allowed_origins by its own PATCH, audited; refuses an origin list that strands a reference', async () => {
    await secretApi(ctx, user).create('MOVE', 'move-value-123');
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody(
        { url: home.url('/m'), headers: { 'X-Key': '{{secret.MOVE}}' } },
        { tool_name: 'move_tool' },
      ),
    );
    const narrowed = await http()
      .patch('/secret/update/MOVE')
      .set(user.auth)
      .send({ allowed_origins: ['https://api.example.com'] })
      .expect(400);
    expect(errorsOf(narrowed.body)[0]).toMatchObject({
      field: 'tool_execution_config.headers.X-Key',
    });
    expect(errorsOf(narrowed.body)[0].message).toContain('secret MOVE');
    await http()
      .patch('/secret/update/MOVE')
      .set(user.auth)
      .send({ value: 'v', allowed_origins: [origin(home)] })
      .expect(400);

    const wider = [origin(home), origin(attacker), 'https://*.Example.com:443'];
    const res = await http()
      .patch('/secret/update/MOVE')
      .set(user.auth)
      .send({ allowed_origins: wider })
      .expect(200);
    expect(res.body.data.allowed_origins).toEqual([
      origin(home),
      origin(attacker),
      'https://*.example.com',
    ]);
    expect(res.body.data.version).toBe(1);
    await http()
      .patch(`/tool/update/${toolId}`)
      .set(user.auth)
      .send({ tool_execution_config: { url: attacker.url('/m') } })
      .expect(200);
    const audit = await http()
      .get('/audit?resource_type=secret&resource_id=MOVE')
      .set(user.auth)
      .expect(200);
    expect(JSON.stringify(audit.body.data.items)).toContain('allowed_origins');
    expect(JSON.stringify(audit.body.data.items)).not.toContain('move-value-123');
  });

  it.each([
    ['a path', ['https://api.example.com/x']],
    ['a bare wildcard', ['https://*']],
    ['provider with an origin', ['provider', 'https://api.example.com']],
    ['no origin', []],
    ['another scheme', ['ftp://api.example.com']],
  ])('refuses allowed_origins with %s (400 naming the field)', async (_what, allowed_origins) => {
    const res = await http()
      .post('/secret/create')
      .set(user.auth)
      .send({
        secret_name: `BAD_${randomUUID().slice(0, 8).toUpperCase()}`,
        value: 'x',
        allowed_origins,
      })
      .expect(400);
    expect(errorsOf(res.body).map((e) => e.field)).toEqual(['allowed_origins']);
  });

  it('a secret created with allowed_origins may only be referenced from them; a wildcard takes subdomains', async () => {
    await http()
      .post('/secret/create')
      .set(user.auth)
      .send({ secret_name: 'WILD', value: 'w', allowed_origins: ['http://*.app.localhost'] })
      .expect(200);
    const refused = await http()
      .post('/tool/create')
      .set(user.auth)
      .send(
        webhookToolBody(
          { url: home.url('/w'), headers: { A: '{{secret.WILD}}' } },
          { tool_name: 'wild_tool' },
        ),
      )
      .expect(400);
    expect(errorsOf(refused.body)[0].field).toBe('tool_execution_config.headers.A');
    const port = new URL(home.baseUrl).port;
    await http()
      .patch('/secret/update/WILD')
      .set(user.auth)
      .send({ allowed_origins: [`http://*.app.localhost:${port}`] })
      .expect(200);
    await http()
      .post('/tool/create')
      .set(user.auth)
      .send(
        webhookToolBody(
          { url: `http://api.app.localhost:${port}/w`, headers: { A: '{{secret.WILD}}' } },
          { tool_name: 'wild_tool' },
        ),
      )
      .expect(200);
  });
});
