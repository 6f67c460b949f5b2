import { comparable, configApi, seedConfig } from '../../api/config-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

describe('POST /config/apply (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob', 'carol', 'dave', 'erin'] });
  const http = () => suite.ctx.http();
  const post = async (user: TestUser, path: string, body: object) =>
    (await http().post(path).set(user.auth).send(body).expect(200)).body.data as Record<
      string,
      unknown
    >;
  const exported = (user: TestUser) => configApi(suite.ctx, user).exported();
  const apply = (user: TestUser, body: object) => configApi(suite.ctx, user).apply(body);
  /** The caller's audit entries of configuration (its key's creation aside). */
  const auditOf = async (user: TestUser) =>
    (
      (await http().get('/audit').query({ limit: 100 }).set(user.auth).expect(200)).body.data
        .items as Array<{ action: string; resource_type: string; resource_id: string }>
    ).filter((entry) => entry.resource_type !== 'api_key');
  let mappingId: string;

  beforeAll(async () => {
    ({ mappingId } = await seedConfig(suite.ctx, suite.alice, 'apply-secret-value'));
  });

  it('applies nothing for the tenant’s own export: the revision stays', async () => {
    const bundle = await exported(suite.alice);
    const res = await apply(suite.alice, { bundle, base_revision: bundle.revision, prune: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revision: bundle.revision, applied: 0 });
    expect((await exported(suite.alice)).revision).toBe(bundle.revision);
  });

  it('recreates everything in an empty tenant, each change audited: both export the same', async () => {
    const source = await exported(suite.alice);
    // The number is held by its owner: give it up so another tenant may map it.
    await http().delete(`/inbound/delete/${mappingId}`).set(suite.alice.auth).expect(200);
    await post(suite.carol, '/secret/create', { secret_name: 'CRM_TOKEN', value: 'other-value' });
    const before = await exported(suite.carol);
    const res = await apply(suite.carol, { bundle: source, base_revision: before.revision });
    expect(res.status).toBe(200);
    expect(res.body.data.applied).toBe(5);
    const copy = await exported(suite.carol);
    expect(res.body.data.revision).toBe(copy.revision);
    expect(comparable(copy)).toEqual(comparable(source));
    const entries = await auditOf(suite.carol);
    const made = entries.map((entry) => `${entry.action} ${entry.resource_type}`);
    expect(made).toEqual(
      expect.arrayContaining([
        'create tool',
        'create inbound_context_strategy',
        'create assistant',
        'attach assistant',
        'assign inbound',
      ]),
    );
    expect(made.filter((entry) => entry === 'create tool')).toHaveLength(2);
    const again = await apply(suite.carol, { bundle: source, base_revision: copy.revision });
    expect(again.body.data).toEqual({ revision: copy.revision, applied: 0 });
  });

  it('writes nothing when a change in the middle of the bundle fails', async () => {
    const held = inboundBody(
      String((await post(suite.bob, '/assistant/create', assistantBody())).assistant_id),
    );
    await post(suite.bob, '/inbound/assign', held);
    const before = await exported(suite.dave);
    const res = await apply(suite.dave, {
      base_revision: before.revision,
      bundle: {
        tools: { opening_hours: { ...staticToolBody('x', '9-5'), tool_name: undefined } },
        assistants: {
          Desk: { ...assistantBody(), assistant_name: undefined, tools: ['opening_hours'] },
        },
        inbound: { [held.inbound_config.phone_number]: { assistant: 'Desk', service: 'exotel' } },
      },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(`bundle.inbound[${held.inbound_config.phone_number}]`);
    const after = await exported(suite.dave);
    expect(after).toEqual(before);
    expect(await auditOf(suite.dave)).toEqual([]);
  });

  it('is 409 on a stale base_revision, with nothing written', async () => {
    const bundle = await exported(suite.erin);
    await post(suite.erin, '/tool/create', staticToolBody('moves_revision', 1));
    bundle.tools.added = {
      tool_description: 'Added',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 1 },
    };
    const res = await apply(suite.erin, { bundle, base_revision: bundle.revision });
    expect(res.status).toBe(409);
    expect(Object.keys((await exported(suite.erin)).tools)).toEqual(['moves_revision']);
    const missing = await apply(suite.erin, { bundle });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors).toContainEqual(
      expect.objectContaining({ field: 'base_revision' }),
    );
  });

  it('updates the fields that differ and, with prune, deletes what the bundle leaves out', async () => {
    const bundle = await exported(suite.erin);
    bundle.tools.moves_revision = { ...bundle.tools.moves_revision, tool_description: 'Changed' };
    bundle.tools.second = {
      tool_description: 'Second',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 2 },
    };
    const kept = await apply(suite.erin, { bundle, base_revision: bundle.revision });
    expect(kept.status).toBe(200);
    expect(kept.body.data.applied).toBe(2);
    const middle = await exported(suite.erin);
    expect(middle.tools.moves_revision.tool_description).toBe('Changed');
    const pruned = await apply(suite.erin, {
      bundle: { tools: { second: middle.tools.second } },
      base_revision: middle.revision,
      prune: true,
    });
    expect(pruned.status).toBe(200);
    expect(pruned.body.data.applied).toBe(1);
    expect(Object.keys((await exported(suite.erin)).tools)).toEqual(['second']);
    const deletes = (await auditOf(suite.erin)).filter((entry) => entry.action === 'delete');
    expect(deletes).toHaveLength(1);
  });
});
