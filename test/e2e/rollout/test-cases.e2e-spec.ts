import { randomUUID } from 'node:crypto';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { AssistantCheckEntity } from '../../../src/rollout/assistant-check.entity';
import { TestCaseEntity } from '../../../src/rollout/test-case.entity';
import { appSuite } from '../../utils/create-test-app';

/** An assistant's test cases: stored as sent, the caller's only, bad input named by its field. */
describe('Assistant test cases (e2e)', () => {
  const suite = appSuite({ users: ['user', 'other'] });
  const http = () => suite.ctx.http();
  let assistantId: string;

  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Known caller',
    call: { caller_number: '+919900011122', variables: { call_type: 'inbound' } },
    context_mock: { status: 200, body: { context: { name: 'Asha' } }, latency_ms: 50 },
    tool_mocks: { book_slot: { arguments: { slot: '10:00' } } },
    expect: { status: 'success', prompt_contains: ['Asha'], missing: [] },
    ...over,
  });

  beforeAll(async () => {
    assistantId = (await assistantApi(suite.ctx, suite.user).create(assistantBody())).assistant_id;
  });

  it('creates, lists, reads, updates and deletes a test case', async () => {
    const created = await http()
      .post(`/assistant/test-case/create/${assistantId}`)
      .set(suite.user.auth)
      .send(body())
      .expect(200);
    const testCase = created.body.data as { test_case_id: string };
    expect(created.body.data).toMatchObject({ assistant_id: assistantId, ...body() });

    const list = await http()
      .get(`/assistant/test-case/list/${assistantId}`)
      .set(suite.user.auth)
      .expect(200);
    expect(list.body.data.items.map((c: { test_case_id: string }) => c.test_case_id)).toContain(
      testCase.test_case_id,
    );

    const updated = await http()
      .patch(`/assistant/test-case/update/${testCase.test_case_id}`)
      .set(suite.user.auth)
      .send({ name: 'Renamed', context_mock: null })
      .expect(200);
    expect(updated.body.data).toMatchObject({ name: 'Renamed', context_mock: null });
    expect(updated.body.data.expect).toEqual(body().expect);

    await http()
      .get(`/assistant/test-case/details/${testCase.test_case_id}`)
      .set(suite.other.auth)
      .expect(404);
    await http()
      .delete(`/assistant/test-case/delete/${testCase.test_case_id}`)
      .set(suite.user.auth)
      .expect(200);
    await http()
      .get(`/assistant/test-case/details/${testCase.test_case_id}`)
      .set(suite.user.auth)
      .expect(404);
  });

  it('deletes the test cases and checks of a deleted assistant', async () => {
    const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(assistantBody());
    const created = await http()
      .post(`/assistant/test-case/create/${assistant_id}`)
      .set(suite.user.auth)
      .send(body())
      .expect(200);
    await http()
      .post(`/assistant/check/${assistant_id}`)
      .set(suite.user.auth)
      .send({ version: null })
      .expect(200);
    const count = async () => ({
      cases: await suite.ctx.dataSource.getRepository(TestCaseEntity).countBy({ assistant_id }),
      checks: await suite.ctx.dataSource
        .getRepository(AssistantCheckEntity)
        .countBy({ assistant_id }),
    });
    expect(await count()).toEqual({ cases: 1, checks: 1 });

    await http().delete(`/assistant/delete/${assistant_id}`).set(suite.user.auth).expect(200);

    expect(await count()).toEqual({ cases: 0, checks: 0 });
    await http()
      .get(`/assistant/test-case/details/${created.body.data.test_case_id as string}`)
      .set(suite.user.auth)
      .expect(404);
  });

  it("answers 404 for another user's assistant", async () => {
    await http()
      .post(`/assistant/test-case/create/${assistantId}`)
      .set(suite.other.auth)
      .send(body())
      .expect(404);
    await http().get(`/assistant/test-case/list/${assistantId}`).set(suite.other.auth).expect(404);
    await http()
      .post(`/assistant/test-case/create/${randomUUID()}`)
      .set(suite.user.auth)
      .send(body())
      .expect(404);
  });

  it.each([
    ['name', { name: '' }],
    ['context_mock.body', { context_mock: { status: 200, body: { big: 'x'.repeat(70_000) } } }],
    ['context_mock.latency_ms', { context_mock: { status: 200, body: {}, latency_ms: 30_001 } }],
    ['context_mock.status', { context_mock: { status: 99, body: {} } }],
    ['tool_mocks', { tool_mocks: { book_slot: { args: {} } } }],
    ['expect.status', { expect: { status: 'maybe' } }],
    ['expect.tool_requests', { expect: { tool_requests: [{}] } }],
    ['call.variables', { call: { variables: { a: 1 } } }],
  ])('answers 400 naming %s', async (field, over) => {
    const res = await http()
      .post(`/assistant/test-case/create/${assistantId}`)
      .set(suite.user.auth)
      .send(body(over))
      .expect(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });
});
