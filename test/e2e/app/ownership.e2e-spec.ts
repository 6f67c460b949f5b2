/**
 * Ownership, checked end to end: another user's ids are 404 on every route, in the activity log
 * and in queue jobs, and the owner's records do not change.
 */
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { toolApi } from '../../api/tool-api';
import { uniquePhone } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { staticToolBody } from '../../fixtures/tool';
import { BOTH_SCOPES } from '../../fixtures/user';
import { appSuite, type TestUser } from '../../utils/create-test-app';

describe("another user's ids are 404 on every route", () => {
  const suite = appSuite({
    users: ['alice', 'bob'],
    scopes: { alice: BOTH_SCOPES, bob: BOTH_SCOPES },
  });
  const a = { assistant: '', tool: '', strategy: '', inbound: '' };
  const b = { assistant: '', tool: '', strategy: '', inbound: '' };

  async function seed(user: TestUser, into: typeof a): Promise<void> {
    into.assistant = (await assistantApi(suite.ctx, user).create()).assistant_id;
    into.tool = (
      await toolApi(suite.ctx, user).create(staticToolBody('lookup_order', 'x', 'd'))
    ).tool_id;
    const routed = await routeNumber(
      suite.ctx,
      user,
      into.assistant,
      strategyBody('http://127.0.0.1:9/lookup'),
    );
    into.strategy = routed.strategy.strategy_id;
    into.inbound = routed.inboundId;
    await toolApi(suite.ctx, user).attach(into.assistant, [into.tool]);
  }

  /** Everything alice owns, as she reads it. */
  async function aliceView(): Promise<unknown[]> {
    const get = (path: string) =>
      suite.ctx
        .http()
        .get(path)
        .set(suite.alice.auth)
        .then((r) => [r.status, r.body.data]);
    return Promise.all([
      get(`/assistant/details/${a.assistant}`),
      get(`/tool/details/${a.tool}`),
      get(`/inbound_context_strategy/details/${a.strategy}`),
      get(`/inbound/details/${a.inbound}`),
    ]);
  }

  beforeAll(async () => {
    await seed(suite.alice, a);
    await seed(suite.bob, b);
    // One log entry on alice's assistant.
    await suite.ctx.app
      .get<JobQueue>(jobQueueToken(QUEUES.TOOL_CALL))
      .request(
        { tool_id: a.tool, assistant_id: a.assistant, room_name: 'alice-room', arguments: {} },
        { waitMs: 20_000 },
      );
  });

  it('bob gets 404 for each of alice’s resources, and alice’s records do not change', async () => {
    const before = await aliceView();
    const calls: [string, string, string, Record<string, unknown>?][] = [
      ['get', `/assistant/details/${a.assistant}`, 'Assistant'],
      ['patch', `/assistant/update/${a.assistant}`, 'Assistant', { assistant_name: 'stolen' }],
      ['get', `/assistant/runtime/${a.assistant}`, 'Assistant'],
      ['get', `/tool/details/${a.tool}`, 'Tool'],
      ['patch', `/tool/update/${a.tool}`, 'Tool', { tool_description: 'stolen' }],
      [
        'post',
        `/tool/attach/${b.assistant}`,
        "alice's tool on bob's assistant",
        { tool_ids: [a.tool] },
      ],
      [
        'post',
        `/tool/detach/${b.assistant}`,
        "alice's tool from bob's assistant",
        { tool_ids: [a.tool] },
      ],
      [
        'post',
        `/tool/attach/${a.assistant}`,
        "bob's tool on alice's assistant",
        { tool_ids: [b.tool] },
      ],
      [
        'post',
        `/tool/detach/${a.assistant}`,
        "bob's tool from alice's assistant",
        { tool_ids: [b.tool] },
      ],
      [
        'post',
        `/tool/detach/${a.assistant}`,
        "alice's tool from alice's assistant, by bob",
        { tool_ids: [a.tool] },
      ],
      ['get', `/inbound_context_strategy/details/${a.strategy}`, 'Strategy'],
      [
        'patch',
        `/inbound_context_strategy/update/${a.strategy}`,
        'Strategy',
        { strategy_name: 'stolen' },
      ],
      ['post', `/inbound_context_strategy/test/${a.strategy}`, 'Strategy test', {}],
      [
        'post',
        `/inbound_context_strategy/test/${b.strategy}`,
        "bob's strategy previewing alice's assistant",
        { assistant_id: a.assistant },
      ],
      ['get', `/inbound/details/${a.inbound}`, 'Inbound'],
      ['patch', `/inbound/update/${a.inbound}`, 'Inbound', { is_active: false }],
      [
        'patch',
        `/inbound/update/${b.inbound}`,
        "bob's mapping to alice's assistant",
        { assistant_id: a.assistant },
      ],
      [
        'patch',
        `/inbound/update/${b.inbound}`,
        "bob's mapping to alice's strategy",
        { inbound_context_strategy_id: a.strategy },
      ],
      [
        'post',
        '/inbound/assign',
        "assign alice's assistant",
        {
          assistant_id: a.assistant,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        },
      ],
      [
        'post',
        '/inbound/assign',
        "assign alice's strategy",
        {
          assistant_id: b.assistant,
          inbound_context_strategy_id: a.strategy,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        },
      ],
      ['delete', `/assistant/delete/${a.assistant}`, 'Assistant'],
      ['delete', `/tool/delete/${a.tool}`, 'Tool'],
      ['delete', `/inbound_context_strategy/delete/${a.strategy}`, 'Strategy'],
      ['delete', `/inbound/delete/${a.inbound}`, 'Inbound'],
    ];
    const wrong: string[] = [];
    for (const [method, path, label, body] of calls) {
      const req = (
        suite.ctx.http() as unknown as Record<string, (p: string) => import('supertest').Test>
      )
        [method](path)
        .set(suite.bob.auth);
      const res = await (body ? req.send(body) : req);
      if (res.status !== 404 || res.body.success !== false)
        wrong.push(`${label} ${method.toUpperCase()} ${path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
    expect(await aliceView()).toEqual(before);
    // Bob's own mapping and assistant were not re-pointed either.
    const bobMapping = await suite.ctx
      .http()
      .get(`/inbound/details/${b.inbound}`)
      .set(suite.bob.auth);
    expect(bobMapping.body.data).toMatchObject({
      assistant_id: b.assistant,
      inbound_context_strategy_id: b.strategy,
    });
    const bobAssistant = await suite.ctx
      .http()
      .get(`/assistant/details/${b.assistant}`)
      .set(suite.bob.auth);
    expect(bobAssistant.body.data.tool_ids).toEqual([b.tool]);
  });

  it("GET /logs filtered by alice's assistant gives bob 0 entries (and alice 1)", async () => {
    const forBob = await suite.ctx
      .http()
      .get('/logs')
      .query({ assistant_id: a.assistant })
      .set(suite.bob.auth);
    expect(forBob.status).toBe(200);
    expect(forBob.body.data).toMatchObject({ logs: [], total: 0 });
    const byRoom = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: 'alice-room' })
      .set(suite.bob.auth);
    expect(byRoom.body.data.total).toBe(0);
    const forAlice = await suite.ctx
      .http()
      .get('/logs')
      .query({ assistant_id: a.assistant })
      .set(suite.alice.auth);
    expect(forAlice.body.data.total).toBe(1);
  });

  it("bob's queue jobs cannot use alice's tool or mapping", async () => {
    const toolCall = await suite.ctx.app
      .get<JobQueue<unknown, { status: string; error: string | null }>>(
        jobQueueToken(QUEUES.TOOL_CALL),
      )
      .request(
        { tool_id: a.tool, assistant_id: b.assistant, room_name: 'bob-room', arguments: {} },
        { waitMs: 20_000 },
      );
    expect(toolCall.status).toBe('error');
    const forAlice = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: 'bob-room' })
      .set(suite.alice.auth);
    expect(forAlice.body.data.total).toBe(0);
  });
});
