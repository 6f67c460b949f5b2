/**
 * Body-level fuzzing across every POST/PATCH route: bodies that are not a JSON object, broken
 * JSON, over 1 MB, wrong content type.
 */
import fc from 'fast-check';
import { AssistantEntity } from '../../src/assistant/assistant.entity';
import { ToolEntity } from '../../src/tool/tool.entity';
import { assistantApi } from '../api/assistant-api';
import { inboundApi } from '../api/inbound-api';
import { strategyApi } from '../api/strategy-api';
import { toolApi } from '../api/tool-api';
import { assistantBody } from '../fixtures/assistant';
import { strategyBody } from '../fixtures/strategy';
import { staticToolBody } from '../fixtures/tool';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import {
  fuzzParams,
  fuzzTimeout,
  uniquePhoneDigits,
  type Body,
  safeJsonValue,
} from '../utils/arbitraries';
import { describeResponse, expectEnvelope } from './fuzz-harness';

type Method = 'post' | 'patch';

describe('request bodies on every POST/PATCH route (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let routes: { method: Method; path: string; valid: () => Body }[];

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    const assistant = assistantBody();
    const tool = staticToolBody('body_fuzz', 1, 'd');
    const strategy = strategyBody('http://127.0.0.1:9/x');
    const assistantId = (await assistantApi(ctx, user).create(assistant)).assistant_id;
    const toolId = (await toolApi(ctx, user).create(tool)).tool_id;
    const strategyId = (await strategyApi(ctx, user).create(strategy)).strategy_id;
    const assign = () => ({
      assistant_id: assistantId,
      service: 'exotel',
      inbound_config: { phone_number: uniquePhoneDigits() },
    });
    const inboundId = (await inboundApi(ctx, user).assign(assign())).inbound_id;
    routes = [
      { method: 'post', path: '/assistant/create', valid: () => assistant },
      {
        method: 'patch',
        path: `/assistant/update/${assistantId}`,
        valid: () => ({ assistant_name: 'x' }),
      },
      {
        method: 'post',
        path: '/tool/create',
        valid: () => ({ ...tool, tool_name: `t_${Date.now()}` }),
      },
      { method: 'patch', path: `/tool/update/${toolId}`, valid: () => ({ tool_description: 'x' }) },
      {
        method: 'post',
        path: `/tool/attach/${assistantId}`,
        valid: () => ({ tool_ids: [toolId] }),
      },
      {
        method: 'post',
        path: `/tool/detach/${assistantId}`,
        valid: () => ({ tool_ids: [toolId] }),
      },
      { method: 'post', path: '/inbound_context_strategy/create', valid: () => strategy },
      {
        method: 'patch',
        path: `/inbound_context_strategy/update/${strategyId}`,
        valid: () => ({ strategy_name: 'x' }),
      },
      { method: 'post', path: `/inbound_context_strategy/test/${strategyId}`, valid: () => ({}) },
      { method: 'post', path: '/inbound/assign', valid: assign },
      { method: 'patch', path: `/inbound/update/${inboundId}`, valid: () => ({ is_active: true }) },
    ];
  });
  afterAll(() => ctx.close());

  const send = (
    route: { method: Method; path: string },
    raw: string | Buffer,
    contentType = 'application/json',
  ) =>
    ctx.http()[route.method](route.path).set(user.auth).set('Content-Type', contentType).send(raw);

  /** Raw bodies the API must refuse before any DTO runs, with the one status each deserves. */
  const junk: fc.Arbitrary<{ label: string; raw: string; status: number; contentType?: string }> =
    fc.oneof(
      fc
        .array(safeJsonValue({ maxDepth: 2 }), { maxLength: 4 })
        .map((v) => ({ label: 'top-level array', raw: JSON.stringify(v), status: 422 })),
      fc
        .oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))
        .map((v) => ({ label: 'top-level scalar', raw: JSON.stringify(v), status: 422 })),
      fc
        .constantFrom(
          '{',
          '{"a":}',
          "{'a':1}",
          '{"a":1,}',
          'nul',
          '{"a":"\u0000',
          '[1,2',
          '{"a":1}}',
          '\uFEFF{"a":1',
          'NaN',
          '{"a":01}',
        )
        .map((raw) => ({ label: 'broken JSON', raw, status: 422 })),
      fc.constantFrom(1_048_577, 1_500_000).map((n) => ({
        label: 'over 1 MB',
        raw: JSON.stringify({ assistant_name: 'x'.repeat(n) }),
        status: 413,
      })),
      fc.integer({ min: 64, max: 5000 }).map((n) => ({
        label: `nested ${n + 1} levels deep`,
        raw: `{"x":${'['.repeat(n)}${']'.repeat(n)}}`,
        status: 400,
      })),
      fc.constantFrom('\\ud800', '\\udfff', 'a\\udbffb', '\\ude00\\ud83d').map((text) => ({
        label: `lone surrogate ${text}`,
        raw: `{"assistant_name":"${text}"}`,
        status: 400,
      })),
      fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
        .map((contentType) => ({
          label: `content type ${contentType}`,
          raw: 'a=1',
          status: 415,
          contentType,
        })),
    );

  it(
    'bodies that are not a JSON object, broken, too large, too deep, ill-formed Unicode or not JSON → 422/413/400/415 envelope, nothing written',
    async () => {
      const assistants = () =>
        ctx.dataSource.getRepository(AssistantEntity).count({ where: { user_id: user.userId } });
      const tools = () =>
        ctx.dataSource.getRepository(ToolEntity).count({ where: { user_id: user.userId } });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 10 }), junk, async (i, body) => {
          const route = routes[i];
          const before = [await assistants(), await tools()];
          const res = await send(route, body.raw, body.contentType);
          expectEnvelope(res);
          if (res.status !== body.status)
            throw new Error(
              `${body.label} on ${route.path}: expected ${body.status}, got ${describeResponse(res)}`,
            );
          expect(res.body.success).toBe(false);
          expect([await assistants(), await tools()]).toEqual(before);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it('a body of about 900 KB is parsed and judged by the DTO (400), not refused as too large', async () => {
    const res = await send(
      routes[0],
      JSON.stringify({ ...routes[0].valid(), assistant_prompt: '😀'.repeat(225_000) }),
    );
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { field: 'assistant_prompt', message: expect.any(String) },
    ]);
  });
});
