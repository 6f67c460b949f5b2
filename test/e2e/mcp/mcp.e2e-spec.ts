import { assistantApi } from '../../api/assistant-api';
import { configApi } from '../../api/config-api';
import { answerOf, suiteMcpClients } from '../../api/mcp-client';
import { assistantBody } from '../../fixtures/assistant';
import { openingHoursBundle, openingHoursCreate } from '../../fixtures/config-bundle';
import { appSuite, type TestUser } from '../../utils/create-test-app';

/** The MCP server at POST /mcp, through the SDK's own client over Streamable HTTP. */
describe('POST /mcp (e2e)', () => {
  const suite = appSuite({
    users: ['alice', 'runner', 'bob'],
    scopes: { runner: ['runtime'] },
  });
  const mcp = suiteMcpClients(() => suite.ctx.app, 'e2e');
  const as = (user: TestUser) => mcp.connect(user.apiKey);

  beforeAll(async () => {
    await assistantApi(suite.ctx, suite.alice).create(assistantBody());
  });

  it('lists the tools a config key may use, write tools annotated as such', async () => {
    const { tools } = await (await as(suite.alice)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'apply_config',
      'export_config',
      'get_assistant',
      'list_assistants',
      'list_inbound',
      'plan_config',
      'render_assistant',
      'search_logs',
      'test_strategy',
    ]);
    const apply = tools.find((tool) => tool.name === 'apply_config');
    expect(apply?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(apply?.inputSchema.required).toEqual(
      expect.arrayContaining(['bundle', 'base_revision']),
    );
    const logs = tools.find((tool) => tool.name === 'search_logs');
    expect(Object.keys(logs?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['page', 'limit', 'log_type', 'policy_outcome', 'cursor']),
    );
    const plan = tools.find((tool) => tool.name === 'plan_config');
    expect(plan?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('reads, plans and applies through the services of the REST routes', async () => {
    const client = await as(suite.alice);
    const listed = answerOf(await client.callTool({ name: 'list_assistants', arguments: {} }));
    expect(listed).toMatchObject({ total: 1, items: [{ assistant_name: 'Front desk' }] });
    const exported = answerOf(await client.callTool({ name: 'export_config', arguments: {} }));
    expect(exported.revision).toBe((await configApi(suite.ctx, suite.alice).exported()).revision);
    const bundle = openingHoursBundle();
    const plan = answerOf(await client.callTool({ name: 'plan_config', arguments: { bundle } }));
    expect(plan).toEqual({
      revision: exported.revision,
      changes: [openingHoursCreate],
    });
    const applied = answerOf(
      await client.callTool({
        name: 'apply_config',
        arguments: { bundle, base_revision: exported.revision },
      }),
    );
    const after = await configApi(suite.ctx, suite.alice).exported();
    expect(applied).toEqual({ revision: after.revision, applied: 1 });
    expect(Object.keys(after.tools)).toEqual(['opening_hours']);
  });

  it('names the field of bad input, as the route does, and writes nothing', async () => {
    const client = await as(suite.bob);
    const before = await configApi(suite.ctx, suite.bob).exported();
    const bad = await client.callTool({
      name: 'apply_config',
      arguments: {
        bundle: {
          tools: { broken: { tool_description: '', tool_execution_type: 'static_return' } },
        },
        base_revision: before.revision,
      },
    });
    expect(bad.isError).toBe(true);
    const answer = answerOf(bad);
    expect(answer.status).toBe(400);
    expect(answer.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'bundle.tools[broken].tool_description' }),
      ]),
    );
    const notUuid = await client.callTool({
      name: 'get_assistant',
      arguments: { assistant_id: 'not-a-uuid' },
    });
    expect(notUuid.isError).toBe(true);
    expect(answerOf(notUuid).errors).toEqual([expect.objectContaining({ field: 'assistant_id' })]);
    expect(await configApi(suite.ctx, suite.bob).exported()).toEqual(before);
  });

  it('shows a runtime key the read tools only: apply_config is refused, nothing written', async () => {
    const client = await as(suite.runner);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('plan_config');
    expect(names).not.toContain('apply_config');
    const before = answerOf(await client.callTool({ name: 'export_config', arguments: {} }));
    expect(before.revision).toEqual(expect.any(String));
    const refused = await client
      .callTool({
        name: 'apply_config',
        arguments: { bundle: { tools: {} }, base_revision: before.revision },
      })
      .then(
        (result) => result.isError === true,
        () => true,
      );
    expect(refused).toBe(true);
    const after = answerOf(await client.callTool({ name: 'export_config', arguments: {} }));
    expect(after.revision).toBe(before.revision);
  });

  it('refuses a wrong key before any tool', async () => {
    await expect(mcp.connect('vac_not_a_real_key')).rejects.toThrow(/401|Unauthorized/i);
  });
});
