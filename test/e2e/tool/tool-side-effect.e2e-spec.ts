import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { staticToolBody, webhookToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';

const fieldsOf = (body: { data: { errors: Array<{ field: string }> } }) => [
  ...new Set(body.data.errors.map((e) => e.field)),
];

const booking = (over: Record<string, unknown> = {}) =>
  webhookToolBody(
    { url: 'https://api.example.com/bookings' },
    {
      tool_name: 'book_slot',
      tool_parameters: [{ name: 'slot', type: 'string' }],
      ...over,
    },
  );

describe('Tool side effects (e2e)', () => {
  const suite = appSuite({ users: ['alice'], scopes: { alice: ['config', 'runtime'] } });
  const http = () => suite.ctx.http();

  it('defaults to none: no dedupe key, a 3600 s window, no cancel notice', async () => {
    const { tool_id } = await toolApi(suite.ctx, suite.alice).create(booking());
    const res = await http().get(`/tool/details/${tool_id}`).set(suite.alice.auth).expect(200);
    expect(res.body.data).toMatchObject({
      side_effect: 'none',
      dedupe_key: null,
      dedupe_window_seconds: 3600,
      notify_cancel: false,
    });
  });

  it('stores the fields on create and update, and details, the published version and the runtime read show them', async () => {
    const tools = toolApi(suite.ctx, suite.alice);
    const { tool_id } = await tools.create(
      booking({
        side_effect: 'irreversible',
        dedupe_key: ['slot', 'customer.phone'],
        dedupe_window_seconds: 600,
        notify_cancel: true,
      }),
    );
    const details = await tools.details(tool_id);
    expect(details).toMatchObject({
      side_effect: 'irreversible',
      dedupe_key: ['slot', 'customer.phone'],
      dedupe_window_seconds: 600,
      notify_cancel: true,
    });
    const { tool_id: plainId } = await tools.create(staticToolBody('opening_hours', '9-17'));
    const { assistant_id } = await assistantApi(suite.ctx, suite.alice).create();
    await tools.attach(assistant_id, [tool_id, plainId]);
    await http().post(`/assistant/publish/${assistant_id}`).set(suite.alice.auth).expect(200);

    // Changed after publishing: the working copy shows the change, version 1 what was published.
    await http()
      .patch(`/tool/update/${tool_id}`)
      .set(suite.alice.auth)
      .send({ side_effect: 'idempotent', dedupe_key: null })
      .expect(200);
    expect(await tools.details(tool_id)).toMatchObject({
      side_effect: 'idempotent',
      dedupe_key: null,
      dedupe_window_seconds: 600,
    });
    type RuntimeTool = {
      function: { name: string };
      side_effect: string;
      defer_until_eot: boolean;
    };
    const runtime = async (query: string) => {
      const res = await http()
        .get(`/assistant/runtime/${assistant_id}${query}`)
        .set(suite.alice.auth)
        .expect(200);
      const tools = res.body.data.tools as RuntimeTool[];
      return Object.fromEntries(
        tools.map((t) => [t.function.name, [t.side_effect, t.defer_until_eot]]),
      );
    };
    expect(await runtime('?version=1')).toEqual({
      book_slot: ['irreversible', true],
      opening_hours: ['none', false],
    });
    expect(await runtime('')).toEqual({
      book_slot: ['idempotent', false],
      opening_hours: ['none', false],
    });
  });

  describe('bad input: 400 naming the field', () => {
    it.each([
      ['a dedupe key on a none tool', { dedupe_key: ['slot'] }, 'dedupe_key'],
      [
        'a dedupe key with a path that is not a dotted identifier',
        { side_effect: 'irreversible', dedupe_key: ['slot', 'customer..phone'] },
        'dedupe_key',
      ],
      [
        'a dedupe key of more than 8 paths',
        { side_effect: 'idempotent', dedupe_key: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] },
        'dedupe_key',
      ],
      ['an empty dedupe key', { side_effect: 'irreversible', dedupe_key: [] }, 'dedupe_key'],
      ['a window under 60 s', { dedupe_window_seconds: 59 }, 'dedupe_window_seconds'],
      ['a window over a day', { dedupe_window_seconds: 86_401 }, 'dedupe_window_seconds'],
      ['an unknown side effect', { side_effect: 'sometimes' }, 'side_effect'],
      ['notify_cancel not a boolean', { notify_cancel: 'yes' }, 'notify_cancel'],
    ])('%s', async (_what, over, field) => {
      const res = await http().post('/tool/create').set(suite.alice.auth).send(booking(over));
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual([field]);
    });

    it('an update that makes a tool with a dedupe key none, keeping the key', async () => {
      const { tool_id } = await toolApi(suite.ctx, suite.alice).create(
        booking({ side_effect: 'irreversible', dedupe_key: ['slot'] }),
      );
      const res = await http()
        .patch(`/tool/update/${tool_id}`)
        .set(suite.alice.auth)
        .send({ side_effect: 'none' });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['dedupe_key']);
    });
  });
});
