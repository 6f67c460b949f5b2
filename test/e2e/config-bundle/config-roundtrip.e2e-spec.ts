import { assistantApi } from '../../api/assistant-api';
import { comparable, configApi } from '../../api/config-api';
import { inboundApi } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { webhookToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Every field a resource takes survives export → apply → export: the ones added after the bundle
 * was first written (a tool's side effect, a mapping's policy, environment, split and guardrail)
 * included, ids inside them as names.
 */
describe('Config bundle round trip (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob', 'carol'] });
  const http = () => suite.ctx.http();
  const config = (user: TestUser) => configApi(suite.ctx, user);

  it('recreates tools with their side effects and a mapping with its policy in another tenant', async () => {
    const { alice, carol } = suite;
    await secretApi(suite.ctx, alice).create('CRM_TOKEN', 'round-trip-secret');
    const tool = await toolApi(suite.ctx, alice).create(
      webhookToolBody(
        {
          url: 'https://api.example.com/bookings',
          headers: { Authorization: 'Bearer {{secret.CRM_TOKEN}}' },
        },
        {
          tool_name: 'book_slot',
          side_effect: 'irreversible',
          dedupe_key: ['slot'],
          dedupe_window_seconds: 600,
          notify_cancel: true,
        },
      ),
    );
    const desk = await assistantApi(suite.ctx, alice).create(assistantBody());
    await toolApi(suite.ctx, alice).attach(desk.assistant_id, [tool.tool_id]);
    const afterHours = await assistantApi(suite.ctx, alice).create(
      assistantBody({ assistant_name: 'After hours' }),
    );
    const body = inboundBody(desk.assistant_id, {
      environment: 'staging',
      policy: {
        timezone: 'Europe/Berlin',
        hours: { mon: ['09:00-17:00'] },
        closed: { action: 'assistant', assistant_id: afterHours.assistant_id, message: 'Closed' },
        max_concurrent_calls: 2,
        overflow: { action: 'reject', message: 'Busy' },
      },
    });
    const mapping = await inboundApi(suite.ctx, alice).assign(body);

    const source = await config(alice).exported();
    expect(source.tools.book_slot).toMatchObject({
      side_effect: 'irreversible',
      dedupe_key: ['slot'],
      dedupe_window_seconds: 600,
      notify_cancel: true,
    });
    const phone = body.inbound_config.phone_number;
    expect(source.inbound[phone]).toMatchObject({
      assistant: 'Front desk',
      environment: 'staging',
      guardrail: null,
      policy: {
        closed: { action: 'assistant', assistant: 'After hours', message: 'Closed' },
        max_concurrent_calls: 2,
      },
    });
    expect(JSON.stringify(source)).not.toMatch(UUID_ANYWHERE);

    // The number is held by its owner: give it up so another tenant may map it.
    await http().delete(`/inbound/delete/${mapping.inbound_id}`).set(alice.auth).expect(200);
    await secretApi(suite.ctx, carol).create('CRM_TOKEN', 'other-value');
    const before = await config(carol).exported();
    const res = await config(carol).apply({ bundle: source, base_revision: before.revision });
    expect(res.status).toBe(200);
    const copy = await config(carol).exported();
    expect(comparable(copy)).toEqual(comparable(source));
    const carolsMapping = (
      await http().get('/inbound/list').set(carol.auth).expect(200)
    ).body.data.items[0] as { policy: { closed: { assistant_id: string } } };
    const carolsAssistants = (await http().get('/assistant/list').set(carol.auth).expect(200)).body
      .data.items as Array<{ assistant_id: string; assistant_name: string }>;
    expect(carolsMapping.policy.closed.assistant_id).toBe(
      carolsAssistants.find((a) => a.assistant_name === 'After hours')?.assistant_id,
    );
  });

  it('recreates a split with its guardrail after the mappings are wiped', async () => {
    const { bob } = suite;
    const assistant = await assistantApi(suite.ctx, bob).create(assistantBody());
    const control = await assistantApi(suite.ctx, bob).publish(assistant.assistant_id);
    const variant = await assistantApi(suite.ctx, bob).publish(assistant.assistant_id);
    await inboundApi(suite.ctx, bob).assign(
      inboundBody(assistant.assistant_id, {
        environment: 'staging',
        assistant_variants: [
          { assistant_version: control, weight: 80 },
          { assistant_version: variant, weight: 20 },
        ],
        guardrail: { max_error_rate: 0.25, min_lookups: 20, window_seconds: 900 },
      }),
    );
    const source = await config(bob).exported();
    const [number] = Object.keys(source.inbound);
    expect(source.inbound[number]).toMatchObject({
      environment: 'staging',
      guardrail: { max_error_rate: 0.25, min_lookups: 20, window_seconds: 900 },
    });

    const wiped = await config(bob).apply({
      bundle: { inbound: {} },
      base_revision: source.revision,
      prune: true,
    });
    expect(wiped.body.data).toMatchObject({ applied: 1 });
    const empty = await config(bob).exported();
    expect(empty.inbound).toEqual({});
    const back = await config(bob).apply({ bundle: source, base_revision: empty.revision });
    expect(back.body.data).toMatchObject({ applied: 1 });
    expect(comparable(await config(bob).exported())).toEqual(comparable(source));
  });
});
