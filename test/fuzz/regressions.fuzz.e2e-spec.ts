/**
 * Bugs the property tests found, pinned as deterministic cases so they stay fixed.
 */
import { assistantApi } from '../api/assistant-api';
import { inboundApi } from '../api/inbound-api';
import { strategyApi } from '../api/strategy-api';
import { toolApi } from '../api/tool-api';
import { assistantBody } from '../fixtures/assistant';
import { strategyBody } from '../fixtures/strategy';
import { staticToolBody } from '../fixtures/tool';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import { PROTOTYPE_KEYS, uniquePhoneDigits, type Body } from '../utils/arbitraries';

describe('regressions found by fuzzing', () => {
  let ctx: TestContext;
  let user: TestUser;
  let assistantId: string;
  let toolId: string;
  let strategyId: string;
  let inboundId: string;

  const assistant = assistantBody();

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    assistantId = (await assistantApi(ctx, user).create(assistant)).assistant_id;
    toolId = (await toolApi(ctx, user).create(staticToolBody('regression_tool', 1, 'd'))).tool_id;
    strategyId = (await strategyApi(ctx, user).create(strategyBody('http://127.0.0.1:9/x')))
      .strategy_id;
    inboundId = (
      await inboundApi(ctx, user).assign({
        assistant_id: assistantId,
        service: 'exotel',
        inbound_config: { phone_number: uniquePhoneDigits() },
      })
    ).inbound_id;
  });
  afterAll(() => ctx.close());

  // class-transformer skips keys named after Object.prototype members (`constructor`, `toString`,
  // ...) when it builds the DTO instance, so forbidNonWhitelisted never sees them: they are
  // dropped silently (200) instead of refused as unknown fields (400).
  it('Object.prototype member names are refused as unknown fields on every POST/PATCH route', async () => {
    const routes: [string, string, Body][] = [
      ['post', '/assistant/create', assistant],
      ['patch', `/assistant/update/${assistantId}`, { assistant_name: 'x' }],
      [
        'post',
        '/tool/create',
        {
          tool_name: 'proto_keys',
          tool_description: 'd',
          tool_execution_type: 'static_return',
          tool_execution_config: { value: 1 },
        },
      ],
      ['patch', `/tool/update/${toolId}`, { tool_description: 'x' }],
      ['post', `/tool/attach/${assistantId}`, { tool_ids: [toolId] }],
      [
        'post',
        '/inbound_context_strategy/create',
        {
          strategy_name: 'S',
          strategy_type: 'webhook',
          strategy_config: { url: 'http://127.0.0.1:9/x' },
        },
      ],
      ['patch', `/inbound_context_strategy/update/${strategyId}`, { strategy_name: 'x' }],
      ['post', `/inbound_context_strategy/test/${strategyId}`, {}],
      ['patch', `/inbound/update/${inboundId}`, { is_active: true }],
    ];
    const accepted: string[] = [];
    for (const [method, path, body] of routes) {
      for (const key of PROTOTYPE_KEYS) {
        const raw = JSON.stringify(body).replace(
          /^\{/,
          `{"${key}":1${Object.keys(body).length ? ',' : ''}`,
        );
        const res = await (
          ctx.http() as unknown as Record<string, (p: string) => import('supertest').Test>
        )
          [method](path)
          .set(user.auth)
          .set('Content-Type', 'application/json')
          .send(raw);
        const named =
          res.status === 400 &&
          (res.body.data.errors as { field: string }[]).some((e) => e.field === key);
        if (!named)
          accepted.push(
            `${method.toUpperCase()} ${path.split('/').slice(0, 3).join('/')} "${key}": ${res.status}`,
          );
      }
    }
    expect(accepted).toEqual([]);
  });

  // `@ValidateNested({ each: true })` treats an array element that is itself an array as a nested
  // collection: `[[]]` passes and is stored as a parameter `{"required": true}` with no name or
  // type. The runtime view then hands the model `properties: {"undefined": {}}, required: [null]`,
  // every tool call fails, and every later PATCH of the tool fails re-validation.
  it('a tool_parameters element that is an array is refused, not stored as a nameless parameter', async () => {
    for (const tool_parameters of [[[]], [[{ name: 'a', type: 'string' }]]]) {
      const res = await ctx
        .http()
        .post('/tool/create')
        .set(user.auth)
        .send({
          tool_name: `nested_${Date.now()}`,
          tool_description: 'd',
          tool_parameters,
          tool_execution_type: 'static_return',
          tool_execution_config: { value: 1 },
        });
      expect(res.status).toBe(400);
      expect(res.body.data.errors[0].field).toMatch(/^tool_parameters/);
    }
  });

  // `strategy_config.url: null` passed the update DTO (`@IsOptional` lets null through) and reached
  // the masked-URL restore as null: a TypeError, 500. A strategy always has a URL: null is a 400.
  it('PATCH strategy_config.url null is a 400 naming the field, and the strategy keeps its URL', async () => {
    const res = await ctx
      .http()
      .patch(`/inbound_context_strategy/update/${strategyId}`)
      .set(user.auth)
      .send({ strategy_config: { url: null } });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(
      'strategy_config.url',
    );
    const details = await ctx
      .http()
      .get(`/inbound_context_strategy/details/${strategyId}`)
      .set(user.auth);
    expect(details.body.data.strategy_config.url).toBe('http://127.0.0.1:9/x');
  });

  // class-validator's length rules (validator.js isLength) do not count U+FE0F/U+FE0E presentation
  // selectors, MySQL's VARCHAR(n) does: a value that passed "1-100 characters" could overflow the
  // column (INSERT "Data too long" → 500). Lengths are now counted in code points, as MySQL does.
  it('counts text limits in code points: at the limit it is stored, one over is a 400 naming the field', async () => {
    const heart = '❤️'; // U+2764 U+FE0F: two code points
    const cases: [string, string, (text: string) => Body, string, number][] = [
      [
        'post',
        '/assistant/create',
        (t) => ({ ...assistant, assistant_name: t }),
        'assistant_name',
        100,
      ],
      [
        'post',
        '/assistant/create',
        (t) => ({ ...assistant, assistant_start_instruction: t }),
        'assistant_start_instruction',
        200,
      ],
      [
        'post',
        '/tool/create',
        (t) => ({
          tool_name: `fe0f_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
          tool_description: t,
          tool_execution_type: 'static_return',
          tool_execution_config: { value: 1 },
        }),
        'tool_description',
        500,
      ],
      [
        'post',
        '/inbound_context_strategy/create',
        (t) => ({
          strategy_name: t,
          strategy_type: 'webhook',
          strategy_config: { url: 'http://127.0.0.1:9/x' },
        }),
        'strategy_name',
        100,
      ],
      [
        'patch',
        `/assistant/update/${assistantId}`,
        (t) => ({ assistant_name: t }),
        'assistant_name',
        100,
      ],
    ];
    const send = (method: string, path: string, body: Body) =>
      (ctx.http() as unknown as Record<string, (p: string) => import('supertest').Test>)
        [method](path)
        .set(user.auth)
        .send(body);
    for (const [method, path, body, field, limit] of cases) {
      const atLimit = heart.repeat(limit / 2);
      const ok = await send(method, path, body(atLimit));
      expect(`${path} ${field}: ${ok.status}`).toBe(`${path} ${field}: 200`);
      const over = await send(method, path, body(`${atLimit}a`));
      expect(`${path} ${field}: ${over.status}`).toBe(`${path} ${field}: 400`);
      expect(over.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const createKey = await ctx
      .http()
      .post('/auth/create-key')
      .set('Authorization', `Bearer ${process.env.ADMIN_API_KEY}`)
      .send({ user_name: heart.repeat(50), user_email: `fe0f.${Date.now()}@example.com` });
    expect(createKey.status).toBe(200);
  });
});
