import { load } from 'js-yaml';
import { type Bundle, configApi, seedConfig } from '../../api/config-api';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const SECRET_VALUE = 'export-secret-value-never-shown';
const CLEAR_HEADER = 'Bearer sk_live_exportCLEARvalue0123456789';
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /config/export (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob', 'carol'] });
  const http = () => suite.ctx.http();
  const post = async (user: TestUser, path: string, body: object) =>
    (await http().post(path).set(user.auth).send(body).expect(200)).body.data as Record<
      string,
      unknown
    >;
  const exported = (user: TestUser) => configApi(suite.ctx, user).exported();
  let phone: string;

  beforeAll(async () => {
    ({ phone } = await seedConfig(suite.ctx, suite.alice, SECRET_VALUE, {
      'X-Clear': CLEAR_HEADER,
    }));
  });

  it('keys every resource by name, references by name, no ids, timestamps or secret values', async () => {
    const res = await http().get('/config/export').set(suite.alice.auth).expect(200);
    expect(res.body).toMatchObject({ success: true, message: 'Configuration exported' });
    const bundle = res.body.data as Bundle;
    expect(Object.keys(bundle).sort()).toEqual(
      ['assistants', 'inbound', 'revision', 'secrets', 'strategies', 'tools'].sort(),
    );
    expect(bundle.secrets).toEqual(['CRM_TOKEN']);
    expect(Object.keys(bundle.tools).sort()).toEqual(['lookup_order', 'opening_hours']);
    expect(bundle.tools.lookup_order).toMatchObject({
      tool_description: 'd',
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: 'https://api.example.com/orders',
        headers: { Authorization: 'Bearer {{secret.CRM_TOKEN}}', 'X-Clear': '****' },
      },
    });
    expect(bundle.assistants['Front desk']).toMatchObject({
      assistant_prompt: 'Hello {{context.name}}.',
    });
    // Attachment order; tools attached in one request share the instant, so either order is theirs.
    expect([...(bundle.assistants['Front desk'].tools as string[])].sort()).toEqual([
      'lookup_order',
      'opening_hours',
    ]);
    expect(bundle.strategies.CRM).toMatchObject({
      strategy_type: 'webhook',
      strategy_config: { url: 'https://crm.example.com/context' },
      is_active: true,
    });
    expect(bundle.inbound[phone]).toEqual({
      assistant: 'Front desk',
      assistant_version: null,
      assistant_variants: null,
      environment: null,
      guardrail: null,
      strategy: 'CRM',
      policy: null,
      service: 'exotel',
      is_active: true,
    });
    const text = JSON.stringify(bundle);
    expect(text).not.toMatch(UUID_ANYWHERE);
    expect(text).not.toMatch(
      /"(?:assistant|tool|strategy|inbound|inbound_context_strategy)_id"|created_at|updated_at|tool_ids/,
    );
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain('sk_live_exportCLEAR');
  });

  it('shows only the caller’s own configuration', async () => {
    expect(await exported(suite.bob)).toMatchObject({
      assistants: {},
      tools: {},
      strategies: {},
      inbound: {},
      secrets: [],
    });
  });

  it('keeps its revision while nothing changes and moves it with every change', async () => {
    const first = await exported(suite.alice);
    expect(first.revision).toEqual(expect.any(String));
    expect((await exported(suite.alice)).revision).toBe(first.revision);
    await post(suite.alice, '/tool/create', staticToolBody('revision_probe', 1));
    const second = await exported(suite.alice);
    expect(second.revision).not.toBe(first.revision);
    expect(second.tools.revision_probe).toBeDefined();
  });

  it('answers the bundle alone as YAML for ?format=yaml and for Accept: application/yaml', async () => {
    const json = await exported(suite.alice);
    const byQuery = await http()
      .get('/config/export')
      .query({ format: 'yaml' })
      .set(suite.alice.auth)
      .expect(200);
    expect(byQuery.headers['content-type']).toMatch(/^application\/yaml/);
    expect(load(byQuery.text)).toEqual(json);
    const byAccept = await http()
      .get('/config/export')
      .set(suite.alice.auth)
      .set('Accept', 'application/yaml')
      .expect(200);
    expect(load(byAccept.text)).toEqual(json);
  });

  it('is 400 for an unknown format', async () => {
    const res = await http()
      .get('/config/export')
      .query({ format: 'xml' })
      .set(suite.alice.auth)
      .expect(400);
    expect(res.body.data.errors).toEqual([expect.objectContaining({ field: 'format' })]);
  });

  it('is 409 naming the resources when two of one type share a name', async () => {
    const one = await post(suite.carol, '/tool/create', staticToolBody('twin', 1));
    const two = await post(suite.carol, '/tool/create', staticToolBody('twin', 2));
    const res = await http().get('/config/export').set(suite.carol.auth).expect(409);
    expect(res.body.data.duplicates).toEqual([
      { resource_type: 'tools', name: 'twin', ids: [one.tool_id, two.tool_id].sort() },
    ]);
  });

  it('is 401 without a key', async () => {
    await http().get('/config/export').expect(401);
  });
});
