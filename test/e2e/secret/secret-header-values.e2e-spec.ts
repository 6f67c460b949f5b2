import { randomUUID } from 'node:crypto';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { SecretCipher } from '../../../src/secret/secret-cipher';
import { SecretEntity } from '../../../src/secret/secret.entity';
import { assistantApi } from '../../api/assistant-api';
import { secretApi } from '../../api/secret-api';
import { toolApi } from '../../api/tool-api';
import { webhookToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

/** Values a header cannot carry as written (NEL and CSI would leave as raw C1 bytes). */
const UNSENDABLE: [string, string][] = [
  ['NEL', 'tok\u0085en'],
  ['CSI', 'tok\u009ben'],
  ['the euro sign', 'tok€en'],
  ['U+2028', 'tok\u2028en'],
  ['an emoji', 'tok😀en'],
];

/** A secret's value keeps to the header rules of every header that references it. */
describe('secret values in headers (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let producer: CallProducer;
  let user: TestUser;

  beforeAll(async () => {
    [ctx, server] = await Promise.all([createTestApp(), CustomerServer.start()]);
    producer = new CallProducer(ctx);
    user = await ctx.newUser();
    server.respondByDefault({ status: 200, body: { ok: true } });
  });
  afterAll(async () => {
    await producer?.close();
    await ctx?.close();
    await server?.close();
  });

  const name = () => `V_${randomUUID().slice(0, 8).toUpperCase()}`;

  it.each(UNSENDABLE)(
    'refuses a reference from a header to a value with %s (400 naming field and secret); a URL takes it',
    async (_what, value) => {
      const secret = name();
      await secretApi(ctx, user).create(secret, value);
      const res = await ctx
        .http()
        .post('/tool/create')
        .set(user.auth)
        .send(
          webhookToolBody(
            { url: server.url('/h'), headers: { 'X-Key': `Bearer {{secret.${secret}}}` } },
            { tool_name: `t_${secret.toLowerCase()}` },
          ),
        )
        .expect(400);
      expect(res.body.data.errors).toEqual([
        { field: 'tool_execution_config.headers.X-Key', message: expect.stringContaining(secret) },
      ]);
      await ctx
        .http()
        .post('/tool/create')
        .set(user.auth)
        .send(
          webhookToolBody(
            { url: `${server.url('/h')}?k={{secret.${secret}}}` },
            { tool_name: `u_${secret.toLowerCase()}` },
          ),
        )
        .expect(200);
    },
  );

  it('refuses a rotation to a value a referencing header cannot carry', async () => {
    const secret = name();
    await secretApi(ctx, user).create(secret, 'plain-value');
    await toolApi(ctx, user).create(
      webhookToolBody(
        { url: server.url('/r'), headers: { 'X-Key': `{{secret.${secret}}}` } },
        { tool_name: `r_${secret.toLowerCase()}` },
      ),
    );
    const res = await ctx
      .http()
      .patch(`/secret/update/${secret}`)
      .set(user.auth)
      .send({ value: 'tok€en' })
      .expect(400);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'tool_execution_config.headers.X-Key' });
    expect((await secretApi(ctx, user).details(secret)).version).toBe(1);
  });

  it('at send time refuses such a value as config: never sent raw, never a network failure', async () => {
    const secret = name();
    await secretApi(ctx, user).create(secret, 'plain-value');
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody(
        { url: server.url('/send'), headers: { 'X-Key': `{{secret.${secret}}}` } },
        { tool_name: `s_${secret.toLowerCase()}` },
      ),
    );
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    // A value stored before this rule (set under the API, encrypted as the service does).
    await ctx.dataSource
      .getRepository(SecretEntity)
      .update(
        { user_id: user.userId, secret_name: secret },
        { value_encrypted: ctx.app.get(SecretCipher).encrypt('tok\u0085en', user.userId, secret) },
      );
    const result = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: `room-${randomUUID()}`,
      arguments: {},
    });
    expect(result).toMatchObject({ status: 'error', error_class: 'config' });
    expect(server.requestsTo('/send')).toHaveLength(0);
  });

  it('call values are never templates: the job and its replay send a reference in room_name and tool_call_id as text', async () => {
    const secret = name();
    await secretApi(ctx, user).create(secret, 'never-in-call-data');
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody(
        { url: server.url('/call'), headers: { 'X-Key': `{{secret.${secret}}}` } },
        { tool_name: `c_${secret.toLowerCase()}` },
      ),
    );
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    const template = `{{secret.${secret}}}`;
    const result = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: template,
      tool_call_id: template,
      arguments: {},
    });
    expect(result.status).toBe('success');
    const logs = await ctx.http().get('/logs').query({ room_name: template }).set(user.auth);
    const entry = (logs.body.data.logs as { log_id: string }[])[0];
    await ctx.http().post(`/logs/replay/${entry.log_id}`).set(user.auth).expect(200);
    const sent = server.requestsTo('/call');
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers['x-key']).toBe('never-in-call-data');
      expect(request.headers['x-call-room-name']).toBe(template);
      expect(request.headers['x-call-tool-call-id']).toBe(template);
    }
  });
});
