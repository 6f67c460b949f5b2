import { randomBytes } from 'node:crypto';
import { assistantApi } from '../../api/assistant-api';
import { dataOf } from '../../api/envelope';
import { callTool, suiteMcpClients } from '../../api/mcp-client';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

/**
 * `test_strategy` over MCP: the dry run of `POST /inbound_context_strategy/test/:id` (the same
 * service), against a real local server standing in for the customer's endpoint, with the
 * route's scope (`config`) and its secrecy (secrets by name, never their values).
 */
describe('POST /mcp test_strategy (e2e)', () => {
  const suite = appSuite({
    users: ['alice', 'runner', 'bob'],
    scopes: { runner: ['runtime'] },
    server: true,
  });
  const secretValue = `crm-token-${randomBytes(6).toString('hex')}`;
  let strategyId: string;
  let assistantId: string;
  const mcp = suiteMcpClients(() => suite.ctx.app, 'e2e-test-strategy');

  beforeAll(async () => {
    suite.server.respond('/context', { body: { context: { name: 'Asha', tier: 'gold' } } });
    await secretApi(suite.ctx, suite.alice).create('CRM_TOKEN', secretValue);
    ({ assistant_id: assistantId } = await assistantApi(suite.ctx, suite.alice).create(
      assistantBody({ assistant_prompt: 'Hello {{context.name}}.' }),
    ));
    ({ strategy_id: strategyId } = await strategyApi(suite.ctx, suite.alice).create(
      strategyBody(suite.server.url('/context'), {
        headers: { Authorization: 'Bearer {{secret.CRM_TOKEN}}' },
      }),
    ));
  });

  it("answers what the REST dry run answers, after a real call of the customer's endpoint, with no secret value", async () => {
    const args = { caller_number: '+919900011122', assistant_id: assistantId };
    const client = await mcp.connect(suite.alice.apiKey);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'test_strategy');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });

    const before = suite.server.requestsTo('/context').length;
    const { isError, answer } = await callTool(client, 'test_strategy', {
      strategy_id: strategyId,
      ...args,
    });
    expect(isError).toBe(false);
    const [request] = suite.server.requestsTo('/context').slice(before);
    expect(request.json).toMatchObject({ dry_run: true, caller_number: '+919900011122' });
    expect(request.headers.authorization).toBe(`Bearer ${secretValue}`);
    expect(JSON.stringify(answer)).not.toContain(secretValue);

    const rest = await dataOf<Record<string, unknown>>(
      'POST /inbound_context_strategy/test',
      suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategyId}`)
        .set(suite.alice.auth)
        .send(args),
    );
    // The same service: the same answer, but what each call makes afresh (its room, its time).
    const stable = ({ latency_ms: _l, request: r, ...rest }: Record<string, unknown>) => {
      const { payload, ...sent } = r as { payload: Record<string, unknown> };
      const { room_name: _room, ...body } = payload;
      return { ...rest, request: { ...sent, payload: body } };
    };
    expect(stable(answer)).toEqual(stable(rest));
    expect(answer).toMatchObject({
      status: 'success',
      context_keys: ['name', 'tier'],
      prompt_preview: 'Hello Asha.',
      secrets_used: ['CRM_TOKEN'],
      request: { headers: { Authorization: expect.not.stringContaining(secretValue) } },
    });
  });

  it("answers the route's errors: another user's strategy is not found, a bad id names its field", async () => {
    const client = await mcp.connect(suite.bob.apiKey);
    const before = suite.server.requestsTo('/context').length;
    const others = await callTool(client, 'test_strategy', { strategy_id: strategyId });
    expect(others).toMatchObject({ isError: true, answer: { status: 404 } });
    const bad = await callTool(client, 'test_strategy', { strategy_id: 'not-a-uuid' });
    expect(bad).toMatchObject({
      isError: true,
      answer: { status: 400, errors: [expect.objectContaining({ field: 'strategy_id' })] },
    });
    expect(suite.server.requestsTo('/context')).toHaveLength(before);
  });

  it('needs a config key, as the route does: a runtime key neither sees nor calls it', async () => {
    await suite.ctx
      .http()
      .post(`/inbound_context_strategy/test/${strategyId}`)
      .set(suite.runner.auth)
      .send({})
      .expect(403);
    const client = await mcp.connect(suite.runner.apiKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_assistants');
    expect(names).not.toContain('test_strategy');
    const before = suite.server.requestsTo('/context').length;
    const refused = await client
      .callTool({ name: 'test_strategy', arguments: { strategy_id: strategyId } })
      .then(
        (result) => result.isError === true,
        () => true,
      );
    expect(refused).toBe(true);
    expect(suite.server.requestsTo('/context')).toHaveLength(before);
  });
});
