import { AuditTrail } from '../../../src/audit/audit-trail';
import { assistantBody } from '../../fixtures/assistant';
import { ISO, UUID } from '../../fixtures/formats';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { staticToolBody, webhookToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const CLEAR_SECRET = 'Bearer sk_live_auditSECRETvalue0123456789';
const CLEAR_TOKEN = 'audit-token-never-shown-42';
const SECRET_VALUE = 'secret-store-value-never-shown';

interface Entry {
  audit_id: string;
  timestamp: string;
  action: string;
  resource_type: string;
  resource_id: string;
  actor: { user_id: string | null; api_key_id: string | null };
  request_id: string | null;
  changes: { field: string; before: unknown; after: unknown }[];
}

describe('Audit trail (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });
  let aliceKeyId: string;

  beforeAll(async () => {
    aliceKeyId = (await suite.ctx.http().get('/auth/check-key').set(suite.alice.auth).expect(200))
      .body.data.api_key_id as string;
  });

  const audit = async (user: TestUser, query: Record<string, string | number> = {}) =>
    (await suite.ctx.http().get('/audit').query(query).set(user.auth).expect(200)).body.data as {
      items: Entry[];
      total: number;
    };
  const entriesOf = async (user: TestUser, resourceId: string) =>
    (await audit(user, { resource_id: resourceId })).items;
  const post = (path: string, user: TestUser, body: object = {}) =>
    suite.ctx.http().post(path).set(user.auth).send(body).expect(200);
  const patch = (path: string, user: TestUser, body: object) =>
    suite.ctx.http().patch(path).set(user.auth).send(body);
  const newTool = async () =>
    (
      await post(
        '/tool/create',
        suite.alice,
        webhookToolBody({
          url: 'https://api.example.com/orders',
          headers: { Authorization: CLEAR_SECRET, 'X-Team': 'ops' },
        }),
      )
    ).body.data.tool_id as string;

  it("an update's entry shows each changed field before and after, secrets masked, with who and which request", async () => {
    const toolId = await newTool();
    const update = await patch(`/tool/update/${toolId}`, suite.alice, {
      tool_description: 'Looks up orders',
      tool_execution_config: { headers: { 'X-Team': 'sales', 'X-Api-Token': CLEAR_TOKEN } },
    }).expect(200);
    const page = await audit(suite.alice, { resource_type: 'tool', resource_id: toolId });
    expect(page.total).toBe(2);
    const [updated, created] = page.items;
    expect(created.action).toBe('create');
    expect(updated).toMatchObject({
      audit_id: expect.stringMatching(UUID),
      timestamp: expect.stringMatching(ISO),
      action: 'update',
      resource_type: 'tool',
      resource_id: toolId,
      actor: { user_id: suite.alice.userId, api_key_id: aliceKeyId },
      request_id: update.headers['x-request-id'],
    });
    expect(updated.changes).toEqual([
      { field: 'tool_description', before: 'd', after: 'Looks up orders' },
      { field: 'tool_execution_config.headers.X-Team', before: 'ops', after: 'sales' },
      { field: 'tool_execution_config.headers.X-Api-Token', before: null, after: '****' },
    ]);
    expect(created.changes).toContainEqual({
      field: 'tool_execution_config.headers.Authorization',
      before: null,
      after: '****',
    });
    const text = JSON.stringify(page);
    expect(text).not.toContain('sk_live_audit');
    expect(text).not.toContain(CLEAR_TOKEN);
  });

  it('another user sees none of it, and filtering by an id of theirs finds nothing', async () => {
    const toolId = await newTool();
    expect(await entriesOf(suite.bob, toolId)).toEqual([]);
    const bobs = await audit(suite.bob, { limit: 100 });
    expect(bobs.items.every((entry) => entry.actor.user_id !== suite.alice.userId)).toBe(true);
    expect(JSON.stringify(bobs)).not.toContain(toolId);
  });

  it('a refused write leaves no entry, and a write whose entry cannot be written does not land', async () => {
    const toolId = await newTool();
    await suite.ctx
      .http()
      .patch(`/tool/update/${toolId}`)
      .set(suite.alice.auth)
      .set('If-Match', '"stale"')
      .send({ tool_description: 'never' })
      .expect(412);
    await patch(`/tool/update/${toolId}`, suite.alice, {
      tool_execution_config: { url: 'ftp://nope' },
    }).expect(400);
    expect((await entriesOf(suite.alice, toolId)).map((entry) => entry.action)).toEqual(['create']);

    const trail = suite.ctx.app.get(AuditTrail, { strict: false });
    const spy = jest.spyOn(trail, 'record').mockRejectedValueOnce(new Error('audit store down'));
    try {
      await patch(`/tool/update/${toolId}`, suite.alice, {
        tool_description: 'lost with its entry',
      }).expect(500);
    } finally {
      spy.mockRestore();
    }
    const details = await suite.ctx
      .http()
      .get(`/tool/details/${toolId}`)
      .set(suite.alice.auth)
      .expect(200);
    expect(details.body.data.tool_description).toBe('d');
    expect(await entriesOf(suite.alice, toolId)).toHaveLength(1);
  });

  it('covers assistants (create, update, attach, detach, publish, delete), strategies and mappings', async () => {
    const assistantId = (await post('/assistant/create', suite.alice, assistantBody())).body.data
      .assistant_id as string;
    const toolId = (await post('/tool/create', suite.alice, staticToolBody('audited_tool', 1))).body
      .data.tool_id as string;
    await patch(`/assistant/update/${assistantId}`, suite.alice, {
      assistant_name: 'Audited',
    }).expect(200);
    await post(`/tool/attach/${assistantId}`, suite.alice, { tool_ids: [toolId] });
    await post(`/tool/attach/${assistantId}`, suite.alice, { tool_ids: [toolId] }); // no change, no entry
    await post(`/assistant/publish/${assistantId}`, suite.alice, { note: 'first' });
    await post(`/tool/detach/${assistantId}`, suite.alice, { tool_ids: [toolId] });
    const strategyId = (
      await post(
        '/inbound_context_strategy/create',
        suite.alice,
        strategyBody('http://127.0.0.1:9/ctx', { headers: { 'X-Secret-Key': CLEAR_TOKEN } }),
      )
    ).body.data.strategy_id as string;
    const inboundId = (
      await post(
        '/inbound/assign',
        suite.alice,
        inboundBody(assistantId, { inbound_context_strategy_id: strategyId }),
      )
    ).body.data.inbound_id as string;
    await suite.ctx
      .http()
      .delete(`/assistant/delete/${assistantId}`)
      .set(suite.alice.auth)
      .expect(200);

    const assistantEntries = await entriesOf(suite.alice, assistantId);
    expect(assistantEntries.map((entry) => entry.action)).toEqual([
      'delete',
      'detach',
      'publish',
      'attach',
      'update',
      'create',
    ]);
    const byAction = new Map(assistantEntries.map((entry) => [entry.action, entry]));
    expect(byAction.get('update')!.changes).toEqual([
      { field: 'assistant_name', before: 'Front desk', after: 'Audited' },
    ]);
    expect(byAction.get('attach')!.changes).toEqual([
      { field: 'tool_ids', before: [], after: [toolId] },
    ]);
    expect(byAction.get('publish')!.changes).toEqual([
      { field: 'latest_version', before: null, after: 1 },
      { field: 'note', before: null, after: 'first' },
    ]);
    const [strategyCreated] = await entriesOf(suite.alice, strategyId);
    expect(strategyCreated).toMatchObject({
      action: 'create',
      resource_type: 'inbound_context_strategy',
    });
    expect(strategyCreated.changes).toContainEqual({
      field: 'strategy_config.headers.X-Secret-Key',
      before: null,
      after: '****',
    });
    // Deleting the assistant detached it from the mapping: that shows on the assistant's entry.
    const [assigned] = await entriesOf(suite.alice, inboundId);
    expect(assigned).toMatchObject({ action: 'assign', resource_type: 'inbound' });
    expect(JSON.stringify(await audit(suite.alice, { limit: 100 }))).not.toContain(CLEAR_TOKEN);
  });

  it('covers secrets, API keys and the webhook secret, never with a value in clear', async () => {
    const carol = await suite.ctx.newUser();
    await post('/secret/create', carol, { secret_name: 'AUDIT_TOKEN', value: SECRET_VALUE });
    await suite.ctx
      .http()
      .patch('/secret/update/AUDIT_TOKEN')
      .set(carol.auth)
      .send({ value: `${SECRET_VALUE}-2` })
      .expect(200);
    await suite.ctx.http().delete('/secret/delete/AUDIT_TOKEN').set(carol.auth).expect(200);
    const rotated = await post('/auth/webhook-secret/rotate', carol);
    const keyId = (await suite.ctx.http().get('/auth/check-key').set(carol.auth).expect(200)).body
      .data.api_key_id as string;
    await suite.ctx.http().delete(`/auth/keys/${keyId}`).set(carol.auth).expect(200);
    // Another user's trail holds only the creation of their own key.
    const other = await suite.ctx.newUser();
    const others = await audit(other);
    expect(others.items.map((entry) => `${entry.resource_type}:${entry.action}`)).toEqual([
      'api_key:create',
    ]);

    const rows = await suite.ctx.dataSource.query<
      { action: string; resource_type: string; actor_user_id: string | null }[]
    >(
      'SELECT action, resource_type, resource_id, actor_user_id, changes FROM audit_entries WHERE user_id = ? ORDER BY id',
      [carol.userId],
    );
    expect(rows.map((row) => `${row.resource_type}:${row.action}`)).toEqual([
      'api_key:create',
      'secret:create',
      'secret:rotate',
      'secret:delete',
      'webhook_secret:rotate',
      'api_key:revoke',
    ]);
    // The operator created the key: no user's key did.
    expect(rows[0].actor_user_id).toBeNull();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain(rotated.body.data.secret as string);
    expect(text).toContain('****');
  });

  it('filters by action and time, pages newest first, and refuses bad filters with 400', async () => {
    const toolId = await newTool();
    const from = new Date(Date.now() - 60_000).toISOString();
    await suite.ctx.http().delete(`/tool/delete/${toolId}`).set(suite.alice.auth).expect(200);
    const deletes = await audit(suite.alice, { action: 'delete', resource_type: 'tool', from });
    expect(deletes.items.map((entry) => entry.resource_id)).toContain(toolId);
    expect(deletes.items.every((entry) => entry.action === 'delete')).toBe(true);
    expect((await audit(suite.alice, { to: '2000-01-01T00:00:00Z' })).total).toBe(0);
    const firstPage = await audit(suite.alice, { limit: 2, page: 1 });
    const secondPage = await audit(suite.alice, { limit: 2, page: 2 });
    expect(firstPage.items[1].timestamp >= secondPage.items[0].timestamp).toBe(true);
    for (const [query, field] of [
      [{ limit: 101 }, 'limit'],
      [{ resource_type: 'user' }, 'resource_type'],
      [{ action: 'read' }, 'action'],
      [{ from: 'yesterday' }, 'from'],
      [{ extra: 'x' }, 'extra'],
    ] as const) {
      const res = await suite.ctx
        .http()
        .get('/audit')
        .query(query)
        .set(suite.alice.auth)
        .expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});
