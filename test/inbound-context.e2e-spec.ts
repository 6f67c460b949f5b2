import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { AssistantEntity } from '../src/assistant/assistant.entity';
import { WebhookSecretsService } from '../src/auth/webhook-secrets.service';
import { signStandardWebhook } from '../src/common/http/webhook-signature';
import { InboundContextLookupClient } from '../src/inbound-context/client/inbound-context-lookup.client';
import type { InboundContextLookupResult } from '../src/contracts/inbound-context-lookup.contract';
import { InboundContextStrategyEntity } from '../src/inbound-context/inbound-context-strategy.entity';
import { JobFailedError, jobQueueToken, type JobQueue } from '../src/queue/job-queue';
import { QUEUES } from '../src/contracts/queues';
import { createTestApp, type TestContext, type TestUser } from './utils/create-test-app';
import { CustomerServer } from './utils/customer-server';

interface LogJson {
  log_id: string;
  log_type: string;
  status: string;
  assistant_id: string | null;
  room_name: string;
  timestamp: string;
  message: string;
  request_data: Record<string, unknown>;
  response_data: Record<string, unknown>;
  latency_ms: number;
}

/** A unique routable number per call, so parallel files and reruns never collide. */
let phoneSeq = 0;
const uniquePhone = () => {
  phoneSeq += 1;
  const digits = `${Date.now() % 1e9}${process.pid % 1000}${phoneSeq}`.slice(-13).padStart(12, '7');
  return `+91 ${digits.slice(0, 4)} ${digits.slice(4)}`;
};
const digitsOf = (s: string) => s.replace(/\D+/g, '');

describe('Inbound context (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let alice: TestUser;
  let bob: TestUser;
  let client: InboundContextLookupClient;

  const api = {
    createStrategy: (user: TestUser, body: Record<string, unknown>) =>
      ctx.http().post('/inbound_context_strategy/create').set(user.auth).send(body),
    updateStrategy: (user: TestUser, id: string, body: Record<string, unknown>) =>
      ctx.http().patch(`/inbound_context_strategy/update/${id}`).set(user.auth).send(body),
    assign: (user: TestUser, body: Record<string, unknown>) =>
      ctx.http().post('/inbound/assign').set(user.auth).send(body),
    updateMapping: (user: TestUser, id: string, body: Record<string, unknown>) =>
      ctx.http().patch(`/inbound/update/${id}`).set(user.auth).send(body),
  };

  async function newAssistant(
    user: TestUser,
    overrides: Partial<AssistantEntity> = {},
  ): Promise<AssistantEntity> {
    const repo = ctx.dataSource.getRepository(AssistantEntity);
    const entity = repo.create({
      assistant_id: randomUUID(),
      user_id: user.userId,
      assistant_name: 'Front desk',
      assistant_description: 'Answers inbound calls',
      assistant_prompt:
        'Hello {{context.name}}, your tier is {{ context.tier }}. Plan: {{context.account.plan}}.',
      assistant_llm_mode: 'pipeline',
      assistant_start_instruction: 'Greet {{context.name}}',
      assistant_interaction_config: {},
      assistant_end_call_enabled: false,
      ...overrides,
    });
    await repo.save(entity);
    return entity;
  }

  async function newStrategy(
    user: TestUser,
    path: string,
    config: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ) {
    const res = await api.createStrategy(user, {
      strategy_name: `strategy ${path}`,
      strategy_type: 'webhook',
      strategy_config: { url: server.url(path), ...config },
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.body.data as {
      strategy_id: string;
      strategy_config: { headers: Record<string, string> };
    };
  }

  /** An assistant, a strategy on `path` and an active mapping tying them to a fresh number. */
  async function setup(
    user: TestUser,
    path: string,
    config: Record<string, unknown> = {},
    strategyExtra: Record<string, unknown> = {},
  ) {
    const assistant = await newAssistant(user);
    const strategy = await newStrategy(user, path, config, strategyExtra);
    const phone = uniquePhone();
    const res = await api.assign(user, {
      assistant_id: assistant.assistant_id,
      inbound_context_strategy_id: strategy.strategy_id,
      service: 'exotel',
      inbound_config: { phone_number: phone },
    });
    expect(res.status).toBe(200);
    return { assistant, strategy, phone, inboundId: res.body.data.inbound_id as string };
  }

  async function logsFor(user: TestUser, query: Record<string, string>): Promise<LogJson[]> {
    const res = await ctx
      .http()
      .get('/logs')
      .query({ log_type: 'inbound_context_lookup', limit: 100, ...query })
      .set(user.auth)
      .expect(200);
    return res.body.data.logs as LogJson[];
  }

  const lookup = (data: {
    room_name?: string;
    inbound_id?: string;
    inbound_number?: string;
    caller_number?: string;
  }) =>
    client.lookup(
      { room_name: data.room_name ?? `room-${randomUUID()}`, ...data },
      { waitMs: 15_000 },
    );

  beforeAll(async () => {
    server = await CustomerServer.start();
    ctx = await createTestApp();
    [alice, bob] = await Promise.all([ctx.newUser(), ctx.newUser()]);
    client = ctx.app.get(InboundContextLookupClient);
  });

  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  describe('strategies', () => {
    it('creates with defaults filled in and sensitive header values masked', async () => {
      const res = await api
        .createStrategy(alice, {
          strategy_name: 'CRM lookup',
          strategy_type: 'webhook',
          strategy_config: {
            url: server.url('/crm'),
            headers: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k', 'X-Tenant': 'acme' },
          },
        })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Inbound context strategy created',
        data: {
          strategy_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          strategy_name: 'CRM lookup',
          strategy_type: 'webhook',
          strategy_config: {
            url: server.url('/crm'),
            headers: { Authorization: '****', 'X-Api-Key': '****', 'X-Tenant': 'acme' },
            timeout_seconds: 2,
          },
          is_active: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      const details = await ctx
        .http()
        .get(`/inbound_context_strategy/details/${res.body.data.strategy_id}`)
        .set(alice.auth)
        .expect(200);
      expect(details.body.data).toEqual(res.body.data);
      expect(JSON.stringify(details.body)).not.toContain('s3cret');
    });

    it.each([
      [{ strategy_config: { url: 'ftp://example.com/x' } }, 'strategy_config.url'],
      [
        { strategy_config: { url: `https://example.com/${'a'.repeat(500)}` } },
        'strategy_config.url',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: 0.4 } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: 10.5 } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: '2' } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'X-N': 5 } } },
        'strategy_config.headers',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'Bad Name': 'v' } } },
        'strategy_config.headers',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'X-A': 'a\r\nX-B: b' } } },
        'strategy_config.headers',
      ],
      [
        {
          strategy_config: {
            url: 'https://example.com/x',
            headers: { Authorization: 'Bearer a', authorization: 'Bearer b' },
          },
        },
        'strategy_config.headers',
      ],
      [{ strategy_type: 'function' }, 'strategy_type'],
      [{ strategy_name: '' }, 'strategy_name'],
      [{ strategy_name: 'x'.repeat(101) }, 'strategy_name'],
      [{ strategy_config: undefined }, 'strategy_config'],
      [{ is_active: 'true' }, 'is_active'],
    ])('rejects %j naming %s', async (patch, field) => {
      const body = {
        strategy_name: 'n',
        strategy_type: 'webhook',
        strategy_config: { url: 'https://example.com/x' },
        ...patch,
      };
      const res = await api.createStrategy(alice, body).expect(400);
      expect(res.body.success).toBe(false);
      expect((res.body.data.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    });

    it('merges headers on update: null deletes, **** keeps, a value replaces; other fields replace', async () => {
      const created = await newStrategy(alice, '/merge', {
        headers: {
          Authorization: 'Bearer keep-me',
          'X-Token': 'old-token',
          'X-Remove': 'bye',
          'X-Plain': 'p1',
        },
        timeout_seconds: 3,
      });
      const res = await api
        .updateStrategy(alice, created.strategy_id, {
          strategy_name: 'renamed',
          strategy_config: {
            headers: {
              Authorization: '****',
              'X-Token': 'new-token',
              'X-Remove': null,
              'X-New': 'n',
            },
          },
          is_active: false,
        })
        .expect(200);
      expect(res.body.data).toMatchObject({
        strategy_name: 'renamed',
        is_active: false,
        strategy_config: {
          url: server.url('/merge'),
          timeout_seconds: 3,
          headers: { Authorization: '****', 'X-Token': '****', 'X-Plain': 'p1', 'X-New': 'n' },
        },
      });
      expect(Object.keys(res.body.data.strategy_config.headers).sort()).toEqual([
        'Authorization',
        'X-New',
        'X-Plain',
        'X-Token',
      ]);
      const stored = await ctx.dataSource
        .getRepository(InboundContextStrategyEntity)
        .findOneByOrFail({ strategy_id: created.strategy_id });
      expect(stored.strategy_config.headers).toEqual({
        Authorization: 'Bearer keep-me',
        'X-Token': 'new-token',
        'X-Plain': 'p1',
        'X-New': 'n',
      });
    });

    it('validates the merged record on update', async () => {
      const created = await newStrategy(alice, '/merge-invalid');
      const res = await api
        .updateStrategy(alice, created.strategy_id, { strategy_config: { timeout_seconds: 11 } })
        .expect(400);
      expect(res.body.data.errors[0].field).toBe('strategy_config.timeout_seconds');
    });

    it('lists newest first, paginated, only the caller’s', async () => {
      const user = await ctx.newUser();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await newStrategy(user, `/list-${i}`)).strategy_id);
      const page = await ctx
        .http()
        .get('/inbound_context_strategy/list')
        .query({ page: 1, limit: 2 })
        .set(user.auth)
        .expect(200);
      expect(page.body.data.total).toBe(3);
      expect(page.body.data.page).toBe(1);
      expect(page.body.data.limit).toBe(2);
      expect(page.body.data.items.map((s: { strategy_id: string }) => s.strategy_id)).toEqual([
        ids[2],
        ids[1],
      ]);
      const page2 = await ctx
        .http()
        .get('/inbound_context_strategy/list')
        .query({ page: 2, limit: 2 })
        .set(user.auth)
        .expect(200);
      expect(page2.body.data.items.map((s: { strategy_id: string }) => s.strategy_id)).toEqual([
        ids[0],
      ]);
    });

    it('hides other users’ strategies (404) and refuses malformed ids (400)', async () => {
      const created = await newStrategy(alice, '/private');
      await ctx
        .http()
        .get(`/inbound_context_strategy/details/${created.strategy_id}`)
        .set(bob.auth)
        .expect(404);
      await api.updateStrategy(bob, created.strategy_id, { strategy_name: 'x' }).expect(404);
      await ctx
        .http()
        .delete(`/inbound_context_strategy/delete/${created.strategy_id}`)
        .set(bob.auth)
        .expect(404);
      await ctx
        .http()
        .get('/inbound_context_strategy/details/not-a-uuid')
        .set(alice.auth)
        .expect(400);
    });

    it('deletes a strategy and detaches it from mappings', async () => {
      const { strategy, inboundId } = await setup(alice, '/to-delete');
      const res = await ctx
        .http()
        .delete(`/inbound_context_strategy/delete/${strategy.strategy_id}`)
        .set(alice.auth)
        .expect(200);
      expect(res.body.data).toEqual({ strategy_id: strategy.strategy_id, detached_mappings: 1 });
      const mapping = await ctx
        .http()
        .get(`/inbound/details/${inboundId}`)
        .set(alice.auth)
        .expect(200);
      expect(mapping.body.data.inbound_context_strategy_id).toBeNull();
      await ctx
        .http()
        .get(`/inbound_context_strategy/details/${strategy.strategy_id}`)
        .set(alice.auth)
        .expect(404);
    });
  });

  describe('inbound mappings', () => {
    it('assigns a number, stored as sent and normalized', async () => {
      const assistant = await newAssistant(alice);
      const phone = uniquePhone();
      const res = await api
        .assign(alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Inbound number assigned',
        data: {
          inbound_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          assistant_id: assistant.assistant_id,
          assistant_version: null,
          inbound_context_strategy_id: null,
          service: 'exotel',
          inbound_config: { phone_number: phone },
          phone_number_normalized: digitsOf(phone),
          is_active: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
    });

    it('refuses fewer than 5 digits, unknown services and missing numbers (400)', async () => {
      const assistant = await newAssistant(alice);
      const base = { assistant_id: assistant.assistant_id, service: 'exotel' };
      const short = await api
        .assign(alice, { ...base, inbound_config: { phone_number: '+1 (23) 4' } })
        .expect(400);
      expect(short.body.data.errors[0].field).toBe('inbound_config.phone_number');
      await api
        .assign(alice, {
          ...base,
          service: 'twilio',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(400);
      const missing = await api.assign(alice, { ...base }).expect(400);
      expect(missing.body.data.errors.map((e: { field: string }) => e.field)).toContain(
        'inbound_config',
      );
    });

    it('allows one active mapping per normalized number (409), also under concurrent assigns', async () => {
      const assistant = await newAssistant(alice);
      const phone = uniquePhone();
      await api
        .assign(alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      const reformatted = digitsOf(phone).replace(/^(\d{2})/, '+$1-');
      const dup = await api
        .assign(bob, {
          assistant_id: (await newAssistant(bob)).assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: reformatted },
        })
        .expect(409);
      expect(dup.body.success).toBe(false);

      const racePhone = uniquePhone();
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          api.assign(alice, {
            assistant_id: assistant.assistant_id,
            service: 'exotel',
            inbound_config: { phone_number: racePhone },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('frees a number when its mapping is deactivated or deleted', async () => {
      const assistant = await newAssistant(alice);
      const phone = uniquePhone();
      const body = {
        assistant_id: assistant.assistant_id,
        service: 'exotel',
        inbound_config: { phone_number: phone },
      };
      const first = await api.assign(alice, body).expect(200);
      await api.updateMapping(alice, first.body.data.inbound_id, { is_active: false }).expect(200);
      const second = await api.assign(alice, body).expect(200);
      await api.updateMapping(alice, first.body.data.inbound_id, { is_active: true }).expect(409);
      await ctx
        .http()
        .delete(`/inbound/delete/${second.body.data.inbound_id}`)
        .set(alice.auth)
        .expect(200);
      await api.updateMapping(alice, first.body.data.inbound_id, { is_active: true }).expect(200);
    });

    it('requires the assistant and strategy to be the caller’s (404)', async () => {
      const bobsAssistant = await newAssistant(bob);
      const bobsStrategy = await newStrategy(bob, '/bob');
      const mine = await newAssistant(alice);
      await api
        .assign(alice, {
          assistant_id: bobsAssistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(404);
      await api
        .assign(alice, {
          assistant_id: mine.assistant_id,
          inbound_context_strategy_id: bobsStrategy.strategy_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(404);
      const created = await api
        .assign(alice, {
          assistant_id: mine.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(200);
      await api
        .updateMapping(alice, created.body.data.inbound_id, {
          assistant_id: bobsAssistant.assistant_id,
        })
        .expect(404);
      await ctx
        .http()
        .get(`/inbound/details/${created.body.data.inbound_id}`)
        .set(bob.auth)
        .expect(404);
    });

    it('updates: replaces or detaches (null) the assistant and the strategy, renumbers', async () => {
      const { inboundId, strategy } = await setup(alice, '/update-mapping');
      const other = await newAssistant(alice);
      const replaced = await api
        .updateMapping(alice, inboundId, { assistant_id: other.assistant_id })
        .expect(200);
      expect(replaced.body.data.assistant_id).toBe(other.assistant_id);
      expect(replaced.body.data.inbound_context_strategy_id).toBe(strategy.strategy_id);
      const detached = await api
        .updateMapping(alice, inboundId, { inbound_context_strategy_id: null })
        .expect(200);
      expect(detached.body.data.inbound_context_strategy_id).toBeNull();
      const noAssistant = await api
        .updateMapping(alice, inboundId, { assistant_id: null })
        .expect(200);
      expect(noAssistant.body.data.assistant_id).toBeNull();
      const phone = uniquePhone();
      const renumbered = await api
        .updateMapping(alice, inboundId, { inbound_config: { phone_number: phone } })
        .expect(200);
      expect(renumbered.body.data.phone_number_normalized).toBe(digitsOf(phone));
    });

    it('lists the caller’s mappings newest first', async () => {
      const user = await ctx.newUser();
      const assistant = await newAssistant(user);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const r = await api.assign(user, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        });
        ids.push(r.body.data.inbound_id as string);
      }
      const res = await ctx.http().get('/inbound/list').set(user.auth).expect(200);
      expect(res.body.data.total).toBe(3);
      expect(res.body.data.items.map((m: { inbound_id: string }) => m.inbound_id)).toEqual(
        ids.reverse(),
      );
    });
  });

  describe('lookup jobs', () => {
    it('succeeds: exact payload and headers sent, prompt rendered, log entry written', async () => {
      const context = {
        name: 'Asha',
        tier: 'gold',
        account: { plan: { name: 'Pro' } },
        balance: 12,
      };
      server.respond('/ok', { body: { context, other: 'ignored' } });
      const { assistant, strategy, phone, inboundId } = await setup(alice, '/ok', {
        headers: { Authorization: 'Bearer live-token', 'X-Tenant': 'acme' },
      });
      const room = `room-${randomUUID()}`;
      const result = await lookup({
        room_name: room,
        inbound_number: phone,
        caller_number: '+919900011122',
      });

      expect(result).toEqual<InboundContextLookupResult>({
        status: 'success',
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        assistant_version: null,
        inbound_id: inboundId,
        strategy_id: strategy.strategy_id,
        context,
        fallback_used: false,
        prompt: 'Hello Asha, your tier is gold. Plan: {"name":"Pro"}.',
        start_instruction: 'Greet Asha',
        latency_ms: expect.any(Number),
        error: null,
        log_id: expect.stringMatching(/^\d+$/),
      });

      const [received] = server.requestsTo('/ok');
      expect(received.method).toBe('POST');
      expect(received.json).toEqual({
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        room_name: room,
        strategy_id: strategy.strategy_id,
        strategy_name: 'strategy /ok',
        strategy_type: 'webhook',
        call_type: 'inbound',
        service: 'exotel',
        inbound_id: inboundId,
        caller_number: '+919900011122',
        inbound_number: digitsOf(phone),
      });
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['authorization']).toBe('Bearer live-token');
      expect(received.headers['x-tenant']).toBe('acme');
      const secrets = await ctx.app.get(WebhookSecretsService).signingSecretsFor(alice.userId);
      const ts = Number(received.headers['webhook-timestamp']);
      expect(received.headers['webhook-signature']).toBe(
        secrets
          .map((s) =>
            signStandardWebhook(s, String(received.headers['webhook-id']), ts, received.rawBody),
          )
          .join(' '),
      );

      const logs = await logsFor(alice, { room_name: room });
      expect(logs).toHaveLength(1);
      expect(logs[0]).toEqual({
        log_id: result.log_id,
        log_type: 'inbound_context_lookup',
        status: 'success',
        assistant_id: assistant.assistant_id,
        room_name: room,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        message: 'Inbound context lookup succeeded: HTTP 200, 4 context key(s)',
        request_data: {
          assistant_version: null,
          strategy_id: strategy.strategy_id,
          strategy_type: 'webhook',
          url: server.url('/ok'),
          headers: { Authorization: '****', 'X-Tenant': '****' },
          timeout_seconds: 2,
          payload: received.json,
        },
        response_data: {
          status_code: 200,
          context_keys: ['account', 'balance', 'name', 'tier'],
          context_size: 4,
          fallback_used: false,
        },
        latency_ms: result.latency_ms,
      });
      expect(Number.isInteger(logs[0].latency_ms)).toBe(true);
      expect(JSON.stringify(logs[0])).not.toContain('live-token');
      expect(JSON.stringify(logs[0])).not.toContain('Asha');
    });

    it('resolves by inbound_id as well as by any formatting of the number', async () => {
      server.respond('/by-id', { body: { context: { name: 'Ravi' } } });
      const { inboundId, phone } = await setup(alice, '/by-id');
      const byId = await lookup({ inbound_id: inboundId });
      expect(byId).toMatchObject({
        status: 'success',
        inbound_id: inboundId,
        context: { name: 'Ravi' },
      });
      expect(server.requestsTo('/by-id')[0].json).not.toHaveProperty('caller_number');
      const byNumber = await lookup({ inbound_number: `00-${digitsOf(phone)}`.replace('00-', '') });
      expect(byNumber.inbound_id).toBe(inboundId);
    });

    it('keeps sending the real token after a masked-header round trip', async () => {
      server.respond('/roundtrip', { body: { context: { ok: 1 } } });
      const { strategy, inboundId } = await setup(alice, '/roundtrip', {
        headers: { Authorization: 'Bearer real-token' },
      });
      const read = await ctx
        .http()
        .get(`/inbound_context_strategy/details/${strategy.strategy_id}`)
        .set(alice.auth)
        .expect(200);
      expect(read.body.data.strategy_config.headers).toEqual({ Authorization: '****' });
      // A client that edits one field and sends the whole record back, masked values included.
      await api
        .updateStrategy(alice, strategy.strategy_id, {
          strategy_config: { ...read.body.data.strategy_config, timeout_seconds: 3 },
        })
        .expect(200);
      const result = await lookup({ inbound_id: inboundId });
      expect(result.status).toBe('success');
      expect(server.requestsTo('/roundtrip')[0].headers['authorization']).toBe('Bearer real-token');
    });

    it('is skipped without a strategy: no webhook, no log, prompt rendered without context', async () => {
      const assistant = await newAssistant(alice);
      const phone = uniquePhone();
      const res = await api
        .assign(alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      const room = `room-${randomUUID()}`;
      const before = server.requests.length;
      const result = await lookup({ room_name: room, inbound_number: phone });
      expect(result).toEqual({
        status: 'skipped',
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        assistant_version: null,
        inbound_id: res.body.data.inbound_id,
        strategy_id: null,
        context: null,
        fallback_used: false,
        prompt: 'Hello , your tier is . Plan: .',
        start_instruction: 'Greet ',
        latency_ms: 0,
        error: null,
        log_id: null,
      });
      expect(server.requests.length).toBe(before);
      expect(await logsFor(alice, { room_name: room })).toHaveLength(0);
    });

    it('answers an unknown number with an error and no log', async () => {
      const result = await lookup({ inbound_number: '+1 555 000 0000 999' });
      expect(result).toMatchObject({
        status: 'error',
        inbound_id: null,
        log_id: null,
        prompt: null,
      });
      expect(result.error).toMatch(/^mapping_not_found: /);
    });

    type Case = [string, Parameters<CustomerServer['respond']>[1], RegExp, Record<string, unknown>];
    const failures: Case[] = [
      [
        '500',
        { status: 500, body: { error: 'down' } },
        /^http_error: webhook answered HTTP 500$/,
        { error: 'http_error', status_code: 500 },
      ],
      [
        'invalid JSON',
        { body: '{"context": {', headers: { 'content-type': 'application/json' } },
        /^invalid_json: /,
        { error: 'invalid_json', status_code: 200 },
      ],
      [
        'missing context',
        { body: { data: { name: 'x' } } },
        /^invalid_response: response has no "context" field$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'non-object context',
        { body: { context: ['a', 'b'] } },
        /^invalid_response: "context" is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'string context',
        { body: { context: 'hello' } },
        /^invalid_response: "context" is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'array body',
        { body: [{ context: {} }] },
        /^invalid_response: response is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'redirect',
        { status: 302, headers: { location: 'http://127.0.0.1:1/' }, body: '' },
        /^http_error: webhook answered HTTP 302$/,
        { error: 'http_error', status_code: 302 },
      ],
    ];

    it.each(failures)(
      'fails softly on %s: error result, prompt without context, error log',
      async (name, response, error, responseData) => {
        const path = `/fail-${name.replace(/\W+/g, '-')}`;
        server.respond(path, response);
        const { assistant, strategy } = await setup(alice, path);
        const room = `room-${randomUUID()}`;
        const phoneMapping = await ctx.http().get('/inbound/list').set(alice.auth).expect(200);
        const mapping = (
          phoneMapping.body.data.items as {
            inbound_id: string;
            inbound_context_strategy_id: string;
          }[]
        ).find((m) => m.inbound_context_strategy_id === strategy.strategy_id)!;
        const result = await lookup({
          room_name: room,
          inbound_id: mapping.inbound_id,
          caller_number: '+15550100',
        });
        expect(result).toMatchObject({
          status: 'error',
          assistant_id: assistant.assistant_id,
          strategy_id: strategy.strategy_id,
          context: null,
          prompt: 'Hello , your tier is . Plan: .',
          start_instruction: 'Greet ',
        });
        expect(result.error).toMatch(error);
        expect(server.requestsTo(path)).toHaveLength(1);
        const logs = await logsFor(alice, { room_name: room });
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({
          status: 'error',
          log_id: result.log_id,
          assistant_id: assistant.assistant_id,
          response_data: responseData,
        });
        expect(logs[0].message).toMatch(/^Inbound context lookup failed \(/);
        expect(logs[0].request_data).toMatchObject({
          strategy_id: strategy.strategy_id,
          strategy_type: 'webhook',
          url: server.url(path),
        });
        expect((logs[0].request_data.payload as Record<string, unknown>).caller_number).toBe(
          '+15550100',
        );
      },
    );

    it('enforces the strategy timeout on a slow endpoint and on a slow-loris body', async () => {
      server.respond('/slow', { delayMs: 5000, body: { context: {} } });
      server.respond('/loris', {
        trickle: { chunk: ' ', intervalMs: 100, count: 60 },
        body: '{"context":{}}',
        headers: { 'content-type': 'application/json' },
      });
      for (const path of ['/slow', '/loris']) {
        const { inboundId } = await setup(alice, path, { timeout_seconds: 0.5 });
        const room = `room-${randomUUID()}`;
        const started = Date.now();
        const result = await lookup({ room_name: room, inbound_id: inboundId });
        const elapsed = Date.now() - started;
        expect(result.status).toBe('error');
        expect(result.error).toBe('timeout: no complete response within 500 ms');
        expect(result.latency_ms).toBeGreaterThanOrEqual(490);
        expect(result.latency_ms).toBeLessThan(1000);
        expect(elapsed).toBeLessThan(2000);
        const [log] = await logsFor(alice, { room_name: room });
        expect(log.response_data).toEqual({
          error: 'timeout',
          message: 'no complete response within 500 ms',
          fallback_used: false,
        });
      }
    });

    it('reports a lookup picked up after the producer gave up as expired, without calling the webhook', async () => {
      const { inboundId } = await setup(alice, '/expired');
      const room = `room-${randomUUID()}`;
      const queue = ctx.app.get<JobQueue<unknown, InboundContextLookupResult>>(
        jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
      );
      const result = await queue.request(
        { room_name: room, inbound_id: inboundId, deadline_at: Date.now() - 1000 },
        { waitMs: 10_000 },
      );
      expect(result.status).toBe('error');
      expect(result.error).toMatch(
        /^expired: the producer's deadline passed \d+ ms before the lookup started/,
      );
      expect(result.prompt).toBe('Hello , your tier is . Plan: .');
      expect(server.requestsTo('/expired')).toHaveLength(0);
      const [log] = await logsFor(alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        latency_ms: 0,
        response_data: { error: 'expired' },
      });
    });

    it('cuts the webhook call at the producer deadline when it comes before the strategy timeout', async () => {
      server.respond('/late', { delayMs: 4000, body: { context: { name: 'Ada' } } });
      const { inboundId } = await setup(alice, '/late', { timeout_seconds: 5 });
      const started = Date.now();
      const result = await client
        .lookup({ room_name: `room-${randomUUID()}`, inbound_id: inboundId }, { waitMs: 2500 })
        .catch((e: unknown) => e);
      // The service answers (timeout) before the producer's own wait runs out.
      expect(result).toMatchObject({ status: 'error', error: expect.stringMatching(/^timeout: /) });
      expect(Date.now() - started).toBeLessThan(2500);
    });

    it('does not call an inactive strategy, and logs it', async () => {
      const { inboundId, strategy } = await setup(alice, '/inactive', {}, { is_active: false });
      const room = `room-${randomUUID()}`;
      const result = await lookup({ room_name: room, inbound_id: inboundId });
      expect(result).toMatchObject({
        status: 'error',
        strategy_id: strategy.strategy_id,
        latency_ms: 0,
        prompt: 'Hello , your tier is . Plan: .',
      });
      expect(result.error).toMatch(/^strategy_inactive: /);
      expect(server.requestsTo('/inactive')).toHaveLength(0);
      const [log] = await logsFor(alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        latency_ms: 0,
        response_data: { error: 'strategy_inactive' },
      });
    });

    it('fails softly on a strategy without URL, and logs it', async () => {
      const { inboundId, strategy } = await setup(alice, '/no-url');
      await ctx.dataSource
        .getRepository(InboundContextStrategyEntity)
        .update(
          { strategy_id: strategy.strategy_id },
          { strategy_config: { headers: {}, timeout_seconds: 2 } },
        );
      const room = `room-${randomUUID()}`;
      const result = await lookup({ room_name: room, inbound_id: inboundId });
      expect(result.status).toBe('error');
      expect(result.error).toMatch(/^missing_url: /);
      const [log] = await logsFor(alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        response_data: { error: 'missing_url' },
        request_data: { url: null },
      });
    });

    it('fails a malformed job at once with a clear reason', async () => {
      const queue = ctx.app.get<JobQueue<unknown, unknown>>(
        jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
      );
      const error = await queue
        .request({ room_name: '', inbound_number: 12 }, { waitMs: 10_000, attempts: 3 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobFailedError);
      expect((error as JobFailedError).reason).toContain('room_name must be a non-empty string');
      expect((error as JobFailedError).reason).toContain(
        'inbound_number must be a string with at least 5 digits',
      );
      await expect(client.lookup({ room_name: 'r' }, { waitMs: 1000 })).rejects.toThrow(
        /one of inbound_id or inbound_number is required/,
      );
    });

    (process.env.REDIS_URL ? it : it.skip)(
      'works from a standalone producer on Redis, as the call worker uses it',
      async () => {
        server.respond('/standalone', { body: { context: { name: 'Zoya' } } });
        const { inboundId, phone } = await setup(alice, '/standalone');
        const standalone = InboundContextLookupClient.fromRedisUrl(process.env.REDIS_URL!, {
          prefix: ctx.app.get(ConfigService).get<string>('queue.prefix'),
        });
        try {
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              standalone.lookup(
                { room_name: `standalone-${i}-${randomUUID()}`, inbound_number: phone },
                { waitMs: 15_000 },
              ),
            ),
          );
          expect(results.map((r) => [r.status, r.inbound_id, r.prompt])).toEqual(
            results.map(() => ['success', inboundId, 'Hello Zoya, your tier is . Plan: .']),
          );
        } finally {
          await standalone.close();
        }
      },
    );

    it('answers and logs 50 concurrent lookups', async () => {
      server.respond('/burst', (req) => ({
        delayMs: 50,
        body: { context: { room: (req.json as { room_name: string }).room_name } },
      }));
      const { inboundId, assistant } = await setup(alice, '/burst');
      const rooms = Array.from({ length: 50 }, (_, i) => `burst-${i}-${randomUUID()}`);
      const results = await Promise.all(
        rooms.map((room) => lookup({ room_name: room, inbound_id: inboundId })),
      );
      expect(results.map((r) => r.status)).toEqual(rooms.map(() => 'success'));
      expect(results.map((r) => r.context?.room)).toEqual(rooms);
      expect(new Set(results.map((r) => r.log_id)).size).toBe(50);
      const logs = await logsFor(alice, { assistant_id: assistant.assistant_id });
      expect(logs).toHaveLength(50);
      expect(logs.map((l) => l.room_name).sort()).toEqual([...rooms].sort());
    });
  });

  describe('dry run', () => {
    it('calls the webhook and previews the prompt without writing a log', async () => {
      server.respond('/dry', { body: { context: { name: 'Meera', tier: 'silver' } } });
      const { assistant, strategy, inboundId, phone } = await setup(alice, '/dry', {
        headers: { 'X-Api-Key': 'dry-key' },
      });
      const res = await ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(alice.auth)
        .send({ caller_number: '+15551234' })
        .expect(200);
      expect(res.body.data).toEqual({
        status: 'success',
        error: null,
        status_code: 200,
        latency_ms: expect.any(Number),
        context_keys: ['name', 'tier'],
        context: { name: 'Meera', tier: 'silver' },
        fallback_used: false,
        assistant_id: assistant.assistant_id,
        prompt_preview: 'Hello Meera, your tier is silver. Plan: .',
        start_instruction_preview: 'Greet Meera',
        request: {
          url: server.url('/dry'),
          headers: { 'X-Api-Key': '****' },
          payload: expect.objectContaining({
            inbound_id: inboundId,
            caller_number: '+15551234',
            inbound_number: digitsOf(phone),
            dry_run: true,
          }),
        },
      });
      const [received] = server.requestsTo('/dry');
      expect(received.headers['x-api-key']).toBe('dry-key');
      expect(await logsFor(alice, { assistant_id: assistant.assistant_id })).toHaveLength(0);
    });

    it('reports a failing webhook and 404s on another user’s strategy', async () => {
      server.respond('/dry-fail', { status: 503, body: '' });
      const strategy = await newStrategy(alice, '/dry-fail');
      const res = await ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(alice.auth)
        .send({})
        .expect(200);
      expect(res.body.data).toMatchObject({
        status: 'error',
        status_code: 503,
        error: 'http_error: webhook answered HTTP 503',
        context_keys: [],
        prompt_preview: null,
      });
      await ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(bob.auth)
        .send({})
        .expect(404);
    });
  });
});
