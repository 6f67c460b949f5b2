import { randomUUID } from 'node:crypto';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

interface CheckedCase {
  name: string;
  passed: boolean;
  failures: string[];
  result: {
    status: string;
    fallback_used: boolean;
    prompt: string | null;
    tool_requests: Array<{
      tool_name: string;
      url: string;
      headers: Record<string, string>;
      body: unknown;
    }>;
  };
}

/**
 * A check plays every test case of an assistant against one version with the lookup's and the tool
 * call's own code, and never sends a request: the customer's endpoints see nothing.
 */
describe('Assistant checks (e2e)', () => {
  const suite = appSuite({ users: ['user', 'other'], server: true });
  const http = () => suite.ctx.http();
  const tag = randomUUID().slice(0, 8).toUpperCase();
  const strategyPath = `/strategy-${tag}`;
  const toolPath = `/tool-${tag}`;
  let assistantId: string;

  const addCase = (body: object) =>
    http()
      .post(`/assistant/test-case/create/${assistantId}`)
      .set(suite.user.auth)
      .send(body)
      .expect(200);
  const check = async (version: number | null) =>
    (
      await http()
        .post(`/assistant/check/${assistantId}`)
        .set(suite.user.auth)
        .send({ version })
        .expect(200)
    ).body.data as {
      check_id: string;
      version: number | null;
      passed: boolean;
      cases: CheckedCase[];
    };
  const assign = (over: Record<string, unknown>) =>
    http().post('/inbound/assign').set(suite.user.auth).send(inboundBody(assistantId, over));
  const caseNamed = (cases: CheckedCase[], name: string) => cases.find((c) => c.name === name)!;

  beforeAll(async () => {
    assistantId = (
      await assistantApi(suite.ctx, suite.user).create(
        assistantBody({ assistant_prompt: 'Hello {{context.name}}.' }),
      )
    ).assistant_id;
    await secretApi(suite.ctx, suite.user).create(
      `BOOKING_TOKEN_${tag}`,
      'sk_live_booking_9f8e7d6c5b4a',
    );
    const tool = await toolApi(suite.ctx, suite.user).create({
      tool_name: 'book_slot',
      tool_description: 'Books a slot',
      tool_parameters: [{ name: 'slot', type: 'string' }],
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: suite.server.url(toolPath),
        headers: { Authorization: `Bearer {{secret.BOOKING_TOKEN_${tag}}}`, 'X-Shop': 'north' },
      },
    });
    await toolApi(suite.ctx, suite.user).attach(assistantId, [tool.tool_id]);
    const strategy = await strategyApi(suite.ctx, suite.user).create(
      strategyBody(suite.server.url(strategyPath), {
        timeout_seconds: 1,
        fallback_context: { name: 'friend' },
      }),
    );
    await inboundApi(suite.ctx, suite.user).assign(
      inboundBody(assistantId, { inbound_context_strategy_id: strategy.strategy_id }),
    );
    await addCase({
      name: 'greets by name with the plan',
      call: { caller_number: '+919900011122' },
      context_mock: { status: 200, body: { context: { name: 'Asha', plan: 'gold' } } },
      expect: { status: 'success', prompt_contains: ['Asha', 'Your plan: gold'], missing: [] },
    });
    await addCase({
      name: 'slow strategy falls back',
      call: {},
      context_mock: { status: 200, body: { context: { name: 'Asha' } }, latency_ms: 5000 },
      expect: { status: 'error', prompt_contains: ['friend'] },
    });
    await addCase({
      name: 'books a slot',
      call: {},
      context_mock: null,
      tool_mocks: { book_slot: { arguments: { slot: '10:00' } } },
      expect: {
        tool_requests: [{ tool_name: 'book_slot', url_contains: toolPath, body_contains: '10:00' }],
      },
    });
  });

  it('fails a version whose prompt lacks an expected value, names why, and sends nothing', async () => {
    const v1 = await assistantApi(suite.ctx, suite.user).publish(assistantId);
    const result = await check(v1);
    expect(result).toMatchObject({ version: v1, passed: false });
    const greets = caseNamed(result.cases, 'greets by name with the plan');
    expect(greets.passed).toBe(false);
    expect(greets.failures.join('\n')).toContain('Your plan: gold');
    expect(greets.result.prompt).toBe('Hello Asha.');

    // A mock slower than the strategy's 1 s timeout is a timeout: the fallback renders.
    const slow = caseNamed(result.cases, 'slow strategy falls back');
    expect(slow).toMatchObject({ passed: true, result: { status: 'error', fallback_used: true } });
    expect(slow.result.prompt).toBe('Hello friend.');

    // The tool request as the job would send it: resolved URL, secret and call headers, masked.
    const books = caseNamed(result.cases, 'books a slot');
    expect(books.passed).toBe(true);
    const [request] = books.result.tool_requests;
    expect(request.url).toBe(suite.server.url(toolPath));
    expect(request.headers).toMatchObject({ Authorization: '****', 'X-Shop': 'north' });
    expect(request.headers['X-Call-Assistant-Id']).toBe(assistantId);
    expect(request.body).toEqual({ slot: '10:00' });
    expect(JSON.stringify(result)).not.toContain('sk_live_booking');

    expect(suite.server.requestsTo(strategyPath)).toHaveLength(0);
    expect(suite.server.requestsTo(toolPath)).toHaveLength(0);

    // Not on a production number (409 naming the field and the version); a staging one takes it.
    const refused = await assign({ environment: 'production', assistant_version: v1 }).expect(409);
    expect(refused.body.message).toContain('assistant_version');
    expect(refused.body.data).toMatchObject({ field: 'assistant_version', version: v1 });
    const staging = await assign({ environment: 'staging', assistant_version: v1 }).expect(200);
    expect(staging.body.data).toMatchObject({ environment: 'staging', assistant_version: v1 });
    // The working copy cannot serve a production number.
    const working = await assign({ environment: 'production' }).expect(409);
    expect(working.body.data).toMatchObject({ field: 'assistant_version', version: null });
  });

  it('passes once the prompt is fixed, and lists checks newest first', async () => {
    await http()
      .patch(`/assistant/update/${assistantId}`)
      .set(suite.user.auth)
      .send({
        assistant_prompt: 'Hello {{context.name}}. Your plan: {{context.plan | default: "none"}}.',
      })
      .expect(200);
    const working = await check(null);
    expect(working.passed).toBe(true);
    const list = await http()
      .get(`/assistant/checks/${assistantId}`)
      .set(suite.user.auth)
      .expect(200);
    expect(list.body.data.items[0].check_id).toBe(working.check_id);

    // Fixed, published and checked: the production pin is accepted; a split naming v1 is not.
    const v2 = await assistantApi(suite.ctx, suite.user).publish(assistantId);
    expect((await check(v2)).passed).toBe(true);
    const pinned = await assign({ environment: 'production', assistant_version: v2 }).expect(200);
    expect(pinned.body.data).toMatchObject({ environment: 'production', assistant_version: v2 });
    const split = await http()
      .patch(`/inbound/update/${pinned.body.data.inbound_id}`)
      .set(suite.user.auth)
      .send({
        assistant_variants: [
          { assistant_version: v2, weight: 90 },
          { assistant_version: 1, weight: 10 },
        ],
      })
      .expect(409);
    expect(split.body.data).toMatchObject({
      field: 'assistant_variants[1].assistant_version',
      version: 1,
    });
    expect(suite.server.requestsTo(strategyPath)).toHaveLength(0);
    expect(suite.server.requestsTo(toolPath)).toHaveLength(0);
  });

  it('does not pass a check without test cases, so a version never checked by a case cannot serve a production number', async () => {
    const bare = (await assistantApi(suite.ctx, suite.user).create(assistantBody())).assistant_id;
    const version = await assistantApi(suite.ctx, suite.user).publish(bare);
    const res = await http()
      .post(`/assistant/check/${bare}`)
      .set(suite.user.auth)
      .send({ version })
      .expect(200);
    expect(res.body.data).toMatchObject({ version, passed: false, cases: [] });
    const refused = await http()
      .post('/inbound/assign')
      .set(suite.user.auth)
      .send(inboundBody(bare, { environment: 'production', assistant_version: version }))
      .expect(409);
    expect(refused.body.data).toMatchObject({ field: 'assistant_version', version });
  });

  it('refuses a guardrail without a split (400 naming it)', async () => {
    const res = await assign({
      guardrail: { max_error_rate: 0.5, min_lookups: 5, window_seconds: 600 },
    }).expect(400);
    expect(JSON.stringify(res.body)).toContain('guardrail');
  });

  it('reports a tool mock naming a tool the version does not hold as a failed case, not a 500', async () => {
    const other = (await assistantApi(suite.ctx, suite.user).create(assistantBody())).assistant_id;
    await http()
      .post(`/assistant/test-case/create/${other}`)
      .set(suite.user.auth)
      .send({ name: 'ghost tool', call: {}, tool_mocks: { ghost: { arguments: {} } }, expect: {} })
      .expect(200);
    const res = await http()
      .post(`/assistant/check/${other}`)
      .set(suite.user.auth)
      .send({ version: null })
      .expect(200);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.cases[0].failures.join('\n')).toContain('tool_mocks.ghost');
  });

  it("answers 404 for another user's assistant or a version that does not exist, 400 without a version", async () => {
    await http()
      .post(`/assistant/check/${assistantId}`)
      .set(suite.other.auth)
      .send({ version: null })
      .expect(404);
    await http().get(`/assistant/checks/${assistantId}`).set(suite.other.auth).expect(404);
    await http()
      .post(`/assistant/check/${assistantId}`)
      .set(suite.user.auth)
      .send({ version: 99 })
      .expect(404);
    const res = await http()
      .post(`/assistant/check/${assistantId}`)
      .set(suite.user.auth)
      .send({})
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('version');
  });
});
