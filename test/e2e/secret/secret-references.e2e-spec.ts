/**
 * `{{secret.NAME}}` references: checked when saved, shown as written, resolved at each outbound
 * request (tool call, strategy webhook, end-call delivery) and in the runtime view.
 */
import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../../src/contracts/queues';
import type {
  EndCallJobData,
  EndCallOutcome,
} from '../../../src/contracts/end-call-webhook.contract';
import type { ToolCallJobData, ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { assistantApi } from '../../api/assistant-api';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { BOTH_SCOPES } from '../../fixtures/user';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';

describe('secret references (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let user: TestUser;
  let other: TestUser;
  let toolCalls: JobQueue<ToolCallJobData, ToolCallResult>;
  let endCalls: JobQueue<EndCallJobData, EndCallOutcome>;

  const webhookTool = (name: string, url: string, headers: Record<string, string>) => ({
    tool_name: name,
    tool_description: 'Looks up a customer in the CRM',
    tool_execution_type: 'webhook',
    tool_execution_config: { url, headers },
  });
  const fieldsOf = (body: { data: { errors: { field: string; message: string }[] } }) =>
    body.data.errors.map((e) => e.field);

  beforeAll(async () => {
    server = await startCustomerServer();
    server.respondByDefault({ status: 200, body: { ok: true, context: { name: 'Asha' } } });
    ctx = await createTestApp();
    [user, other] = await Promise.all([ctx.newUser(BOTH_SCOPES), ctx.newUser()]);
    toolCalls = ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL));
    endCalls = ctx.app.get(jobQueueToken(QUEUES.END_CALL_WEBHOOK));
    await secretApi(ctx, user).create('CRM_TOKEN', 'crm-token-v1');
    await secretApi(ctx, user).create('PATH_PART', 'a b&c');
    await secretApi(ctx, other).create('OTHERS_TOKEN', 'not-yours');
  });

  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  it('a tool header reference reaches the receiver resolved, reads show the reference, a rotation changes the next request', async () => {
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookTool('crm_lookup', server.url('/crm/{{secret.PATH_PART}}/x'), {
        Authorization: 'Bearer {{secret.CRM_TOKEN}}',
        'X-Api-Key': '{{secret.CRM_TOKEN}}',
      }),
    );
    await toolApi(ctx, user).attach(assistantId, [toolId]);

    const details = await toolApi(ctx, user).details(toolId);
    expect(details.tool_execution_config).toMatchObject({
      url: server.url('/crm/{{secret.PATH_PART}}/x'),
      headers: {
        Authorization: 'Bearer {{secret.CRM_TOKEN}}',
        'X-Api-Key': '{{secret.CRM_TOKEN}}',
      },
    });

    const call = () =>
      toolCalls.request(
        {
          tool_id: toolId,
          assistant_id: assistantId,
          room_name: `room-${randomUUID()}`,
          arguments: {},
        },
        { waitMs: 20_000 },
      );
    expect((await call()).status).toBe('success');
    const [first] = await server.waitForRequests('/crm/a%20b%26c/x', 1);
    expect(first.headers.authorization).toBe('Bearer crm-token-v1');
    expect(first.headers['x-api-key']).toBe('crm-token-v1');

    await secretApi(ctx, user).rotate('CRM_TOKEN', 'crm-token-v2');
    expect((await call()).status).toBe('success');
    const requests = await server.waitForRequests('/crm/a%20b%26c/x', 2);
    expect(requests[1].headers.authorization).toBe('Bearer crm-token-v2');

    const secret = await secretApi(ctx, user).details('CRM_TOKEN');
    expect(secret.version).toBe(2);
    expect(secret.last_used_at).not.toBeNull();
    expect(secret.used_by).toEqual(
      expect.arrayContaining([
        {
          resource_type: 'tool',
          resource_id: toolId,
          field: 'tool_execution_config.headers.Authorization',
        },
        {
          resource_type: 'tool',
          resource_id: toolId,
          field: 'tool_execution_config.headers.X-Api-Key',
        },
      ]),
    );
    expect((await secretApi(ctx, user).details('PATH_PART')).used_by).toEqual([
      { resource_type: 'tool', resource_id: toolId, field: 'tool_execution_config.url' },
    ]);
  });

  it('a strategy header reference reaches the context webhook; the dry run lists secrets_used', async () => {
    const strategy = await strategyApi(ctx, user).create(
      strategyBody(server.url('/context'), {
        headers: { 'X-Crm-Auth': 'Token {{secret.CRM_TOKEN}}' },
      }),
    );
    expect(strategy.strategy_config.headers).toEqual({
      'X-Crm-Auth': 'Token {{secret.CRM_TOKEN}}',
    });
    const res = await ctx
      .http()
      .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
      .set(user.auth)
      .send({})
      .expect(200);
    expect(res.body.data.status).toBe('success');
    expect(res.body.data.secrets_used).toEqual(['CRM_TOKEN']);
    const [request] = await server.waitForRequests('/context', 1);
    expect(request.headers['x-crm-auth']).toMatch(/^Token crm-token-v\d$/);
    expect(res.text).not.toContain('crm-token-v');
  });

  it('the runtime view resolves a provider key reference while details shows the reference', async () => {
    // Its first use, a provider key, binds it to "provider".
    await secretApi(ctx, user).create('TTS_KEY', 'tts-key-v1');
    const { assistant_id: id } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_tts_config: { voice_id: 'v-1', api_key: '{{secret.TTS_KEY}}' } }),
    );
    expect((await secretApi(ctx, user).details('TTS_KEY')).allowed_origins).toEqual(['provider']);
    const details = await ctx.http().get(`/assistant/details/${id}`).set(user.auth).expect(200);
    expect(details.body.data.assistant_tts_config.api_key).toBe('{{secret.TTS_KEY}}');
    const runtime = await ctx.http().get(`/assistant/runtime/${id}`).set(user.auth).expect(200);
    expect(runtime.body.data.assistant_tts_config.api_key).toBe('tts-key-v1');

    // A published version keeps the reference, so a rotation reaches it too.
    await ctx.http().post(`/assistant/publish/${id}`).set(user.auth).send({}).expect(200);
    await secretApi(ctx, user).rotate('TTS_KEY', 'crm-token-v3');
    const pinned = await ctx
      .http()
      .get(`/assistant/runtime/${id}?version=1`)
      .set(user.auth)
      .expect(200);
    expect(pinned.body.data.assistant_tts_config.api_key).toBe('crm-token-v3');
  });

  it('an end-call URL reference is resolved at delivery', async () => {
    const { assistant_id: id } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: server.url('/ended/{{secret.PATH_PART}}') }),
    );
    const room = `room-${randomUUID()}`;
    const outcome = await endCalls.request(
      { assistant_id: id, room_name: room, payload: { event: 'call.ended' } },
      { waitMs: 15_000 },
    );
    expect(outcome.status).toBe('delivered');
    await server.waitForRequests('/ended/a%20b%26c', 1);
  });

  it('another user’s secret name is 400 naming the field and the secret', async () => {
    const res = await ctx
      .http()
      .post('/tool/create')
      .set(user.auth)
      .send(
        webhookTool('t_other', server.url('/x'), {
          Authorization: 'Bearer {{secret.OTHERS_TOKEN}}',
        }),
      )
      .expect(400);
    expect(res.body.data.errors).toEqual([
      {
        field: 'tool_execution_config.headers.Authorization',
        message: expect.stringContaining('OTHERS_TOKEN'),
      },
    ]);
    const strategy = await ctx
      .http()
      .post('/inbound_context_strategy/create')
      .set(user.auth)
      .send(strategyBody(server.url('/c?k={{secret.NOPE}}')))
      .expect(400);
    expect(fieldsOf(strategy.body)).toEqual(['strategy_config.url']);
    const assistant = await ctx
      .http()
      .post('/assistant/create')
      .set(user.auth)
      .send(assistantBody({ assistant_llm_config: { api_key: '{{secret.OTHERS_TOKEN}}' } }))
      .expect(400);
    expect(fieldsOf(assistant.body)).toEqual(['assistant_llm_config.api_key']);
  });

  it.each([
    ['in the host', 'http://{{secret.CRM_TOKEN}}.example.com/x'],
    ['in the port', 'http://127.0.0.1:{{secret.CRM_TOKEN}}/x'],
    ['in the scheme', '{{secret.CRM_TOKEN}}://example.com/x'],
  ])('a reference %s of a URL is 400', async (_where, url) => {
    const res = await ctx
      .http()
      .post('/tool/create')
      .set(user.auth)
      .send(webhookTool('t_host', url, {}))
      .expect(400);
    expect(res.body.data.errors).toEqual(
      expect.arrayContaining([
        {
          field: 'tool_execution_config.url',
          message: expect.stringContaining('scheme, host or port'),
        },
      ]),
    );
  });

  it.each([
    'Bearer {{secret.crm_token}}',
    'Bearer {{ secret.CRM_TOKEN }}',
    'Bearer {{secret.CRM_TOKEN}',
  ])('a malformed reference (%s) is 400 naming the header', async (value) => {
    const res = await ctx
      .http()
      .post('/tool/create')
      .set(user.auth)
      .send(webhookTool('t_bad', server.url('/x'), { Authorization: value }))
      .expect(400);
    expect(fieldsOf(res.body)).toEqual(['tool_execution_config.headers.Authorization']);
  });

  it('an update is checked too, and nothing is written when it fails', async () => {
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookTool('t_update', server.url('/u'), { 'X-Tenant': 'acme' }),
    );
    await ctx
      .http()
      .patch(`/tool/update/${toolId}`)
      .set(user.auth)
      .send({ tool_execution_config: { headers: { Authorization: 'Bearer {{secret.MISSING}}' } } })
      .expect(400);
    expect((await toolApi(ctx, user).details(toolId)).tool_execution_config).toMatchObject({
      headers: { 'X-Tenant': 'acme' },
    });
  });

  it('a value with a credential in clear beside a reference is still masked', async () => {
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookTool('t_mixed', server.url('/m'), {
        Authorization: 'Bearer sk_live_abcdef123456 {{secret.CRM_TOKEN}}',
      }),
    );
    expect((await toolApi(ctx, user).details(toolId)).tool_execution_config).toMatchObject({
      headers: { Authorization: '****' },
    });
  });

  it('deleting a referenced secret is 409 with data.used_by; unreferenced, it goes', async () => {
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookTool('t_del', server.url('/d'), { Authorization: 'Bearer {{secret.CRM_TOKEN}}' }),
    );
    const res = await ctx.http().delete('/secret/delete/CRM_TOKEN').set(user.auth).expect(409);
    expect(res.body.data.used_by).toEqual(
      expect.arrayContaining([
        {
          resource_type: 'tool',
          resource_id: toolId,
          field: 'tool_execution_config.headers.Authorization',
        },
        {
          resource_type: 'inbound_context_strategy',
          resource_id: expect.any(String),
          field: 'strategy_config.headers.X-Crm-Auth',
        },
      ]),
    );
    expect((await secretApi(ctx, user).details('CRM_TOKEN')).version).toBe(2);
  });

  it('a published version that still references a secret keeps it from being deleted', async () => {
    await secretApi(ctx, user).create('PINNED_TOKEN', 'pinned-value-1');
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: `${server.url('/end')}?t={{secret.PINNED_TOKEN}}` }),
    );
    await ctx.http().post(`/assistant/publish/${assistantId}`).set(user.auth).send({}).expect(200);
    // The working copy drops the reference; version 1 still holds it, and pinned calls use it.
    await ctx
      .http()
      .patch(`/assistant/update/${assistantId}`)
      .set(user.auth)
      .send({ assistant_end_call_url: server.url('/end') })
      .expect(200);
    const res = await ctx.http().delete('/secret/delete/PINNED_TOKEN').set(user.auth).expect(409);
    expect(res.body.data.used_by).toEqual([
      {
        resource_type: 'assistant_version',
        resource_id: assistantId,
        field: 'v1.assistant_end_call_url',
      },
    ]);
    const details = await secretApi(ctx, user).details('PINNED_TOKEN');
    expect(details.used_by).toEqual(res.body.data.used_by);
  });
});
