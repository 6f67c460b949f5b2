import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { InboundContextStrategyEntity } from '../../../src/inbound-context/inbound-context-strategy.entity';
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { digitsOf } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite, type TestUser } from '../../utils/create-test-app';
import { rebuildRouting } from '../../utils/rebuild-routing';

const PROMPT =
  'Hi {{context.name | default: "there"}}, tier {{ context.tier|default:\'standard\' }}. ' +
  'Caller {{call.caller_number}} dialled {{call.inbound_number}} ({{call.call_type}}) in {{call.room_name}} via {{call.inbound_id}}.';
const START = "Greet {{context.name | default: 'the caller'}}{{context.suffix}}";

describe('Prompt templates (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'], server: true });
  let client: InboundContextLookupClient;

  const newAssistant = async (
    user: TestUser,
    over: Record<string, unknown> = {},
  ): Promise<string> =>
    (
      await assistantApi(suite.ctx, user).create(
        assistantBody({ assistant_prompt: PROMPT, assistant_start_instruction: START, ...over }),
      )
    ).assistant_id;

  async function setup(
    user: TestUser,
    path: string,
    strategyConfig: Record<string, unknown> = {},
    strategyExtra: Record<string, unknown> = {},
  ) {
    const assistantId = await newAssistant(user);
    const { strategy, phone, inboundId } = await routeNumber(
      suite.ctx,
      user,
      assistantId,
      strategyBody(suite.server.url(path), strategyConfig, {
        strategy_name: `strategy ${path}`,
        ...strategyExtra,
      }),
    );
    return { assistantId, strategyId: strategy.strategy_id, phone, inboundId };
  }

  const render = (user: TestUser, id: string, body?: unknown) => {
    const req = suite.ctx.http().post(`/assistant/render/${id}`).set(user.auth);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(() => {
    client = suite.ctx.app.get(InboundContextLookupClient);
  });

  /** A lookup of `inboundId` in a fresh room through the shipped client: the room and the result. */
  async function lookupInNewRoom(inboundId: string, call: { caller_number?: string } = {}) {
    const room = `room-${randomUUID()}`;
    const result = await client.lookup(
      { room_name: room, inbound_id: inboundId, ...call },
      { waitMs: 15_000 },
    );
    return { room, result };
  }

  describe('POST /assistant/render/:assistant_id', () => {
    it('renders context values, call variables and defaults in both quote styles, and lists what is missing', async () => {
      const id = await newAssistant(suite.alice);
      const res = await render(suite.alice, id, {
        context: { name: 'Asha', tier: '' },
        call: { caller_number: '+919900011122', call_type: 'inbound', room_name: 'room-9' },
      }).expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Assistant rendered',
        data: {
          assistant_id: id,
          prompt: 'Hi Asha, tier standard. Caller +919900011122 dialled  (inbound) in room-9 via .',
          start_instruction: 'Greet Asha',
          missing: ['call.inbound_number', 'call.inbound_id', 'context.suffix'],
        },
      });
    });

    it('renders defaults and lists every placeholder without a default when nothing is sent', async () => {
      const id = await newAssistant(suite.alice);
      for (const body of [undefined, {}]) {
        const res = await render(suite.alice, id, body).expect(200);
        expect(res.body.data).toEqual({
          assistant_id: id,
          prompt: 'Hi there, tier standard. Caller  dialled  () in  via .',
          start_instruction: 'Greet the caller',
          missing: [
            'call.caller_number',
            'call.inbound_number',
            'call.call_type',
            'call.room_name',
            'call.inbound_id',
            'context.suffix',
          ],
        });
      }
    });

    it('keeps a null start instruction null', async () => {
      const id = await newAssistant(suite.alice, {
        assistant_prompt: 'Plain',
        assistant_start_instruction: undefined,
      });
      const res = await render(suite.alice, id, {}).expect(200);
      expect(res.body.data).toEqual({
        assistant_id: id,
        prompt: 'Plain',
        start_instruction: null,
        missing: [],
      });
    });

    it.each([
      [{ context: [1, 2] }, 'context'],
      [{ context: 'x' }, 'context'],
      [{ context: { big: 'over 64 KB' } }, 'context'],
      [{ call: 'x' }, 'call'],
      [{ call: { call_type: 'outbound' } }, 'call.call_type'],
      [{ call: { caller_number: 5 } }, 'call.caller_number'],
      [{ call: { room_name: '256 characters' } }, 'call.room_name'],
      [{ extra: true }, 'extra'],
    ])('refuses %j with 400 naming %s', async (sample, field) => {
      const body = JSON.parse(
        JSON.stringify(sample)
          .replace('"over 64 KB"', JSON.stringify('x'.repeat(70_000)))
          .replace('"256 characters"', JSON.stringify('r'.repeat(256))),
      ) as Record<string, unknown>;
      const id = await newAssistant(suite.alice);
      const res = await render(suite.alice, id, body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it("is 404 for another user's assistant or an unknown id, 400 for a bad id", async () => {
      const id = await newAssistant(suite.alice);
      await render(suite.bob, id, {}).expect(404);
      await render(suite.alice, randomUUID(), {}).expect(404);
      await render(suite.alice, 'nope', {}).expect(400);
      await suite.ctx.http().post(`/assistant/render/${id}`).send({}).expect(401);
    });
  });

  describe('lookups', () => {
    it('renders call variables and defaults with the context the webhook returned', async () => {
      suite.server.respond('/tpl-ok', { body: { context: { name: 'Meera', suffix: '!' } } });
      const { phone, inboundId } = await setup(suite.alice, '/tpl-ok');
      const room = `room-${randomUUID()}`;
      const result = await client.lookup(
        { room_name: room, inbound_number: phone, caller_number: '+919900011122' },
        { waitMs: 15_000 },
      );
      expect(result).toMatchObject({
        status: 'success',
        prompt: `Hi Meera, tier standard. Caller +919900011122 dialled ${digitsOf(phone)} (inbound) in ${room} via ${inboundId}.`,
        start_instruction: 'Greet Meera!',
      });
    });

    it('renders defaults and call variables when the lookup fails', async () => {
      suite.server.respond('/tpl-fail', { status: 500, body: '' });
      const { inboundId, phone } = await setup(suite.alice, '/tpl-fail');
      const { room, result } = await lookupInNewRoom(inboundId);
      expect(result).toMatchObject({
        status: 'error',
        prompt: `Hi there, tier standard. Caller  dialled ${digitsOf(phone)} (inbound) in ${room} via ${inboundId}.`,
        start_instruction: 'Greet the caller',
      });
    });

    it('the dry run previews with the same renderer and its sample call', async () => {
      suite.server.respond('/tpl-dry', { body: { context: { tier: 'gold' } } });
      const { strategyId, phone, inboundId } = await setup(suite.alice, '/tpl-dry');
      const res = await suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategyId}`)
        .set(suite.alice.auth)
        .send({ caller_number: '+15550001111' })
        .expect(200);
      const room = (res.body.data.request.payload as { room_name: string }).room_name;
      expect(res.body.data.prompt_preview).toBe(
        `Hi there, tier gold. Caller +15550001111 dialled ${digitsOf(phone)} (inbound) in ${room} via ${inboundId}.`,
      );
      expect(res.body.data.start_instruction_preview).toBe('Greet the caller');
    });
  });

  describe('fallback context', () => {
    const FALLBACK = { name: 'valued customer', tier: 'standard', suffix: '.' };

    const strategyApi = {
      create: (body: Record<string, unknown>) =>
        suite.ctx.http().post('/inbound_context_strategy/create').set(suite.alice.auth).send(body),
      update: (id: string, body: Record<string, unknown>) =>
        suite.ctx
          .http()
          .patch(`/inbound_context_strategy/update/${id}`)
          .set(suite.alice.auth)
          .send(body),
      details: (id: string) =>
        suite.ctx.http().get(`/inbound_context_strategy/details/${id}`).set(suite.alice.auth),
    };

    it('is stored, returned on reads, replaced and removed by update', async () => {
      const created = await strategyApi
        .create({
          strategy_name: 'with fallback',
          strategy_type: 'webhook',
          strategy_config: { url: suite.server.url('/fb-crud'), fallback_context: FALLBACK },
        })
        .expect(200);
      const id = created.body.data.strategy_id as string;
      expect(created.body.data.strategy_config).toEqual({
        url: suite.server.url('/fb-crud'),
        headers: {},
        timeout_seconds: 2,
        fallback_context: FALLBACK,
      });
      expect((await strategyApi.details(id).expect(200)).body.data.strategy_config).toEqual(
        created.body.data.strategy_config,
      );
      const list = await suite.ctx
        .http()
        .get('/inbound_context_strategy/list')
        .query({ limit: 100 })
        .set(suite.alice.auth)
        .expect(200);
      expect(
        (list.body.data.items as { strategy_id: string; strategy_config: unknown }[]).find(
          (item) => item.strategy_id === id,
        )?.strategy_config,
      ).toEqual(created.body.data.strategy_config);

      // Other keys leave it alone; a new object replaces it; null removes it.
      let res = await strategyApi
        .update(id, { strategy_config: { timeout_seconds: 3 } })
        .expect(200);
      expect(res.body.data.strategy_config.fallback_context).toEqual(FALLBACK);
      res = await strategyApi
        .update(id, { strategy_config: { fallback_context: { name: 'friend' } } })
        .expect(200);
      expect(res.body.data.strategy_config.fallback_context).toEqual({ name: 'friend' });
      res = await strategyApi
        .update(id, { strategy_config: { fallback_context: null } })
        .expect(200);
      expect(res.body.data.strategy_config).toEqual({
        url: suite.server.url('/fb-crud'),
        headers: {},
        timeout_seconds: 3,
      });
    });

    it.each([
      ['an array', [1]],
      ['a string', 'text'],
      ['a number', 5],
      ['over 16 KB', { blob: 'x'.repeat(16_384) }],
    ])('refuses a fallback_context that is %s with 400, on create and update', async (_, value) => {
      const create = await strategyApi
        .create({
          strategy_name: 'bad fallback',
          strategy_type: 'webhook',
          strategy_config: { url: suite.server.url('/fb-bad'), fallback_context: value },
        })
        .expect(400);
      expect(create.body.data.errors).toEqual([
        {
          field: 'strategy_config.fallback_context',
          message: 'fallback_context must be a JSON object of at most 16384 bytes',
        },
      ]);
      const { strategyId } = await setup(suite.alice, '/fb-bad');
      const update = await strategyApi
        .update(strategyId, { strategy_config: { fallback_context: value } })
        .expect(400);
      expect(update.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
        'strategy_config.fallback_context',
      ]);
    });

    it('accepts a fallback_context of exactly 16 KB', async () => {
      const value = { blob: 'x'.repeat(16_384 - '{"blob":""}'.length) };
      await strategyApi
        .create({
          strategy_name: 'edge fallback',
          strategy_type: 'webhook',
          strategy_config: { url: suite.server.url('/fb-edge'), fallback_context: value },
        })
        .expect(200);
    });

    const failures: [
      string,
      string,
      (path: string) => void,
      Record<string, unknown>,
      Record<string, unknown>,
    ][] = [
      [
        'timeout',
        'timeout',
        (p) => suite.server.respond(p, { delayMs: 1500, body: { context: {} } }),
        { timeout_seconds: 0.5 },
        {},
      ],
      [
        'HTTP error',
        'http_error',
        (p) => suite.server.respond(p, { status: 502, body: { context: { name: 'no' } } }),
        {},
        {},
      ],
      [
        'invalid JSON',
        'invalid_json',
        (p) =>
          suite.server.respond(p, {
            headers: { 'content-type': 'application/json' },
            body: '{"context":',
          }),
        {},
        {},
      ],
      [
        'a response without context',
        'invalid_response',
        (p) => suite.server.respond(p, { body: { name: 'no' } }),
        {},
        {},
      ],
      [
        'a context that is not an object',
        'invalid_response',
        (p) => suite.server.respond(p, { body: { context: ['no'] } }),
        {},
        {},
      ],
      ['an inactive strategy', 'strategy_inactive', () => undefined, {}, { is_active: false }],
    ];

    describe.each(failures)('on %s', (_label, kind, program, config, extra) => {
      it('renders with the fallback, keeps the error and logs fallback_used', async () => {
        const path = `/fb-${kind}-${randomUUID()}`;
        program(path);
        const { inboundId, strategyId, assistantId } = await setup(
          suite.alice,
          path,
          { ...config, fallback_context: FALLBACK },
          extra,
        );
        const { room, result } = await lookupInNewRoom(inboundId, {
          caller_number: '+15550002222',
        });
        expect(result).toMatchObject<Partial<InboundContextLookupResult>>({
          status: 'error',
          assistant_id: assistantId,
          strategy_id: strategyId,
          context: FALLBACK,
          fallback_used: true,
          start_instruction: 'Greet valued customer.',
        });
        expect(result.error).toMatch(new RegExp(`^${kind}: `));
        expect(result.prompt).toMatch(/^Hi valued customer, tier standard\. Caller \+15550002222 /);
        const log = await logsApi(suite.ctx, suite.alice).lookupEntryOf(room);
        expect(log.status).toBe('error');
        expect(log.response_data).toMatchObject({ error: kind, fallback_used: true });
        expect(log.message).toMatch(/rendered with the fallback context$/);
      });

      it('without a fallback renders defaults and reports fallback_used false', async () => {
        const path = `/fb-none-${kind}-${randomUUID()}`;
        program(path);
        const { inboundId } = await setup(suite.alice, path, config, extra);
        const { room, result } = await lookupInNewRoom(inboundId);
        expect(result).toMatchObject({
          status: 'error',
          context: null,
          fallback_used: false,
          start_instruction: 'Greet the caller',
        });
        expect(result.error).toMatch(new RegExp(`^${kind}: `));
        expect(
          (await logsApi(suite.ctx, suite.alice).lookupEntryOf(room)).response_data,
        ).toMatchObject({
          error: kind,
          fallback_used: false,
        });
      });
    });

    /** The answer and the log entry of a lookup in `room` that fell back after `error`. */
    async function expectFellBack(
      result: InboundContextLookupResult,
      room: string,
      error: string,
    ): Promise<void> {
      expect(result).toMatchObject({ status: 'error', context: FALLBACK, fallback_used: true });
      expect(result.error).toMatch(new RegExp(`^${error}: `));
      expect(result.start_instruction).toBe('Greet valued customer.');
      expect(
        (await logsApi(suite.ctx, suite.alice).lookupEntryOf(room)).response_data,
      ).toMatchObject({ error, fallback_used: true });
    }

    it('on a strategy without URL', async () => {
      const { inboundId, strategyId } = await setup(suite.alice, '/fb-no-url');
      await suite.ctx.dataSource
        .getRepository(InboundContextStrategyEntity)
        .update(
          { strategy_id: strategyId },
          { strategy_config: { headers: {}, timeout_seconds: 2, fallback_context: FALLBACK } },
        );
      await rebuildRouting(suite.ctx);
      const { room, result } = await lookupInNewRoom(inboundId);
      await expectFellBack(result, room, 'missing_url');
    });

    it('on a lookup picked up after the producer gave up (expired)', async () => {
      const { inboundId } = await setup(suite.alice, '/fb-expired', { fallback_context: FALLBACK });
      const queue = suite.ctx.app.get<JobQueue<unknown, InboundContextLookupResult>>(
        jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
      );
      const room = `room-${randomUUID()}`;
      const result = await queue.request(
        { room_name: room, inbound_id: inboundId, deadline_at: Date.now() - 1000 },
        { waitMs: 10_000 },
      );
      await expectFellBack(result, room, 'expired');
      expect(suite.server.requestsTo('/fb-expired')).toHaveLength(0);
    });

    it('is not used when the lookup succeeds', async () => {
      suite.server.respond('/fb-ok', { body: { context: { name: 'Ravi' } } });
      const { inboundId } = await setup(suite.alice, '/fb-ok', { fallback_context: FALLBACK });
      const { room, result } = await lookupInNewRoom(inboundId);
      expect(result).toMatchObject({
        status: 'success',
        context: { name: 'Ravi' },
        fallback_used: false,
        start_instruction: 'Greet Ravi',
        error: null,
      });
      expect(result.prompt).toMatch(/^Hi Ravi, tier standard\./);
      expect(
        (await logsApi(suite.ctx, suite.alice).lookupEntryOf(room)).response_data,
      ).toMatchObject({
        fallback_used: false,
      });
    });

    it('the dry run previews with the fallback when the call fails', async () => {
      suite.server.respond('/fb-dry', { status: 500, body: '' });
      const { strategyId } = await setup(suite.alice, '/fb-dry', { fallback_context: FALLBACK });
      const res = await suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategyId}`)
        .set(suite.alice.auth)
        .send({})
        .expect(200);
      expect(res.body.data).toMatchObject({
        status: 'error',
        context: null,
        fallback_used: true,
        start_instruction_preview: 'Greet valued customer.',
      });
    });
  });
});
