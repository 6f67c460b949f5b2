import { configApi, seedConfig } from '../../api/config-api';
import { assistantBody } from '../../fixtures/assistant';
import { staticToolBody, webhookToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

describe('POST /config/plan (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });
  const http = () => suite.ctx.http();
  const post = async (user: TestUser, path: string, body: object) =>
    (await http().post(path).set(user.auth).send(body).expect(200)).body.data as Record<
      string,
      unknown
    >;
  const exported = (user: TestUser) => configApi(suite.ctx, user).exported();
  const plan = (user: TestUser, body: object) => configApi(suite.ctx, user).plan(body);

  beforeAll(async () => {
    await seedConfig(suite.ctx, suite.alice, 'plan-secret-value');
  });

  it('plans nothing for the tenant’s own export, and changes nothing', async () => {
    const bundle = await exported(suite.alice);
    const res = await plan(suite.alice, { bundle, base_revision: bundle.revision, prune: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revision: bundle.revision, changes: [] });
    expect((await exported(suite.alice)).revision).toBe(bundle.revision);
  });

  it('lists creates with their fields, updates with exactly the changed fields, deletes only with prune', async () => {
    const { revision, ...bundle } = await exported(suite.alice);
    bundle.tools.lookup_order = { ...bundle.tools.lookup_order, tool_description: 'Orders' };
    bundle.assistants['Front desk'] = {
      ...bundle.assistants['Front desk'],
      assistant_interaction_config: { speaks_first: false },
    };
    bundle.tools.new_tool = {
      tool_description: 'New',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 1 },
    };
    delete bundle.tools.opening_hours;
    const kept = await plan(suite.alice, { bundle, base_revision: revision });
    expect(kept.status).toBe(200);
    expect(kept.body.data.changes).toEqual([
      {
        action: 'update',
        resource_type: 'tools',
        name: 'lookup_order',
        fields: ['tool_description'],
      },
      {
        action: 'create',
        resource_type: 'tools',
        name: 'new_tool',
        fields: ['tool_description', 'tool_execution_config', 'tool_execution_type'],
      },
      {
        action: 'update',
        resource_type: 'assistants',
        name: 'Front desk',
        fields: ['assistant_interaction_config'],
      },
    ]);
    const pruned = await plan(suite.alice, { bundle, prune: true });
    expect(pruned.body.data.changes).toContainEqual({
      action: 'delete',
      resource_type: 'tools',
      name: 'opening_hours',
      fields: [],
    });
  });

  it('checks each resource as its route does, naming bundle.<type>[<name>].<field>', async () => {
    const res = await plan(suite.bob, {
      bundle: {
        tools: {
          broken: { tool_description: '', tool_execution_type: 'static_return', tool_id: 'x' },
        },
        assistants: { Desk: { ...assistantBody(), assistant_name: undefined, tools: ['nope'] } },
      },
    });
    expect(res.status).toBe(400);
    const fields = (res.body.data.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'bundle.tools[broken].tool_description',
        'bundle.tools[broken].tool_id',
        'bundle.assistants[Desk].tools',
      ]),
    );
  });

  it('is 400 for an unknown secret, a part that is not a bundle’s, or a bundle that is not an object', async () => {
    const secret = await plan(suite.bob, {
      bundle: {
        tools: {
          t: webhookToolBody({
            url: 'https://api.example.com/x',
            headers: { Authorization: 'Bearer {{secret.MISSING}}' },
          }),
        },
      },
    });
    expect(secret.status).toBe(400);
    expect(secret.body.data.errors).toContainEqual(
      expect.objectContaining({
        field: 'bundle.tools[t]',
        message: expect.stringContaining('MISSING'),
      }),
    );
    const unknownPart = await plan(suite.bob, { bundle: { widgets: {} } });
    expect(unknownPart.status).toBe(400);
    expect(unknownPart.body.data.errors).toEqual([
      expect.objectContaining({ field: 'bundle.widgets' }),
    ]);
    const notObject = await plan(suite.bob, { bundle: [1] });
    expect(notObject.status).toBe(400);
    expect(notObject.body.data.errors).toEqual([expect.objectContaining({ field: 'bundle' })]);
  });

  it("names a field whose secret may not go to its URL's origin, as apply would refuse it", async () => {
    // CRM_TOKEN was bound to https://api.example.com by lookup_order, its first use.
    const { revision: _revision, ...bundle } = await exported(suite.alice);
    const moved = bundle.tools.lookup_order.tool_execution_config as Record<string, unknown>;
    bundle.tools.lookup_order = {
      ...bundle.tools.lookup_order,
      tool_execution_config: { ...moved, url: 'https://other.example.net/orders' },
    };
    await post(suite.alice, '/secret/create', { secret_name: 'FRESH_TOKEN', value: 'fresh' });
    const res = await plan(suite.alice, {
      bundle: {
        ...bundle,
        tools: {
          ...bundle.tools,
          leak: webhookToolBody(
            {
              url: 'https://leak.example.net/x',
              headers: { Authorization: 'Bearer {{secret.CRM_TOKEN}}' },
            },
            { tool_name: undefined },
          ),
          // FRESH_TOKEN is bound by its first use here, so the second may not send it elsewhere.
          first_use: webhookToolBody(
            { url: 'https://a.example.org/x', headers: { 'X-Key': '{{secret.FRESH_TOKEN}}' } },
            { tool_name: undefined },
          ),
          second_use: webhookToolBody(
            { url: 'https://b.example.org/x', headers: { 'X-Key': '{{secret.FRESH_TOKEN}}' } },
            { tool_name: undefined },
          ),
        },
      },
    });
    expect(res.status).toBe(400);
    const errors = res.body.data.errors as Array<{ field: string; message: string }>;
    expect(errors.map((e) => e.field).sort()).toEqual([
      'bundle.tools[leak].tool_execution_config.headers.Authorization',
      'bundle.tools[lookup_order].tool_execution_config.headers.Authorization',
      'bundle.tools[second_use].tool_execution_config.headers.X-Key',
    ]);
    expect(errors.find((e) => e.field.includes('[leak]'))?.message).toContain(
      'may only be sent to https://api.example.com',
    );
  });

  it('is 409 when base_revision is stale', async () => {
    const bundle = await exported(suite.alice);
    await post(suite.alice, '/tool/create', staticToolBody('moves_revision', 1));
    const res = await plan(suite.alice, { bundle, base_revision: bundle.revision });
    expect(res.status).toBe(409);
    expect(res.body.data.base_revision).toBe(bundle.revision);
  });

  it('checks no revision when base_revision is null (the default example)', async () => {
    const bundle = await exported(suite.alice);
    await post(suite.alice, '/tool/create', staticToolBody('moves_revision_again', 1));
    const res = await plan(suite.alice, { bundle, base_revision: null });
    expect(res.status).toBe(200);
    expect(res.body.data.revision).not.toBe(bundle.revision);
  });
});
