/**
 * Security properties, checked end to end: another user's ids are 404 everywhere; customer URLs
 * aimed at loopback, private, link-local or metadata addresses are refused when saved and when
 * the request connects; no secret appears in any response, log line or activity-log entry.
 */
import fs from 'node:fs';
import { lookup } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import { Logger } from 'nestjs-pino';
import { OutboundHttpClient } from '../src/common/http/outbound-http.client';
import { jobQueueToken, type JobQueue } from '../src/queue/job-queue';
import { QUEUES } from '../src/contracts/queues';
import { createTestApp, type TestContext, type TestUser } from './utils/create-test-app';
import { startCustomerServer, type CustomerServer } from './utils/customer-server';

let phoneCounter = 0;
const uniquePhone = () => {
  phoneCounter += 1;
  return `8${String(Date.now() % 1e10).padStart(10, '0')}${String(process.pid % 1000).padStart(3, '0')}${phoneCounter}`;
};
/** Keys that may also read the runtime view (provider keys in clear). */
const BOTH_SCOPES = ['config', 'runtime'];

const assistantBody = (extra: Record<string, unknown> = {}) => ({
  assistant_name: 'Security',
  assistant_description: 'd',
  assistant_prompt: 'Hello {{context.name}}',
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'voice-1' },
  ...extra,
});

function ok<T = Record<string, unknown>>(
  res: { status: number; body: { data: unknown } },
  what: string,
): T {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

describe('Security (e2e)', () => {
  describe("another user's ids are 404 on every route", () => {
    let ctx: TestContext;
    let alice: TestUser;
    let bob: TestUser;
    const a = { assistant: '', tool: '', strategy: '', inbound: '' };
    const b = { assistant: '', tool: '', strategy: '', inbound: '' };

    async function seed(user: TestUser, into: typeof a): Promise<void> {
      const http = ctx.http;
      into.assistant = ok<{ assistant_id: string }>(
        await http().post('/assistant/create').set(user.auth).send(assistantBody()),
        'assistant',
      ).assistant_id;
      into.tool = ok<{ tool_id: string }>(
        await http()
          .post('/tool/create')
          .set(user.auth)
          .send({
            tool_name: 'lookup_order',
            tool_description: 'd',
            tool_execution_type: 'static_return',
            tool_execution_config: { value: 'x' },
          }),
        'tool',
      ).tool_id;
      into.strategy = ok<{ strategy_id: string }>(
        await http()
          .post('/inbound_context_strategy/create')
          .set(user.auth)
          .send({
            strategy_name: 'S',
            strategy_type: 'webhook',
            strategy_config: { url: 'http://127.0.0.1:9/lookup' },
          }),
        'strategy',
      ).strategy_id;
      into.inbound = ok<{ inbound_id: string }>(
        await http()
          .post('/inbound/assign')
          .set(user.auth)
          .send({
            assistant_id: into.assistant,
            inbound_context_strategy_id: into.strategy,
            service: 'exotel',
            inbound_config: { phone_number: uniquePhone() },
          }),
        'inbound',
      ).inbound_id;
      await http()
        .post(`/tool/attach/${into.assistant}`)
        .set(user.auth)
        .send({ tool_ids: [into.tool] });
    }

    /** Everything alice owns, as she reads it. */
    async function aliceView(): Promise<unknown[]> {
      const get = (path: string) =>
        ctx
          .http()
          .get(path)
          .set(alice.auth)
          .then((r) => [r.status, r.body.data]);
      return Promise.all([
        get(`/assistant/details/${a.assistant}`),
        get(`/tool/details/${a.tool}`),
        get(`/inbound_context_strategy/details/${a.strategy}`),
        get(`/inbound/details/${a.inbound}`),
      ]);
    }

    beforeAll(async () => {
      ctx = await createTestApp();
      [alice, bob] = await Promise.all([ctx.newUser(BOTH_SCOPES), ctx.newUser(BOTH_SCOPES)]);
      await seed(alice, a);
      await seed(bob, b);
      // One log entry on alice's assistant.
      await ctx.app
        .get<JobQueue>(jobQueueToken(QUEUES.TOOL_CALL))
        .request(
          { tool_id: a.tool, assistant_id: a.assistant, room_name: 'alice-room', arguments: {} },
          { waitMs: 20_000 },
        );
    });
    afterAll(() => ctx.close());

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
          ctx.http() as unknown as Record<string, (p: string) => import('supertest').Test>
        )
          [method](path)
          .set(bob.auth);
        const res = await (body ? req.send(body) : req);
        if (res.status !== 404 || res.body.success !== false)
          wrong.push(`${label} ${method.toUpperCase()} ${path}: ${res.status}`);
      }
      expect(wrong).toEqual([]);
      expect(await aliceView()).toEqual(before);
      // Bob's own mapping and assistant were not re-pointed either.
      const bobMapping = await ctx.http().get(`/inbound/details/${b.inbound}`).set(bob.auth);
      expect(bobMapping.body.data).toMatchObject({
        assistant_id: b.assistant,
        inbound_context_strategy_id: b.strategy,
      });
      const bobAssistant = await ctx.http().get(`/assistant/details/${b.assistant}`).set(bob.auth);
      expect(bobAssistant.body.data.tool_ids).toEqual([b.tool]);
    });

    it("GET /logs filtered by alice's assistant gives bob 0 entries (and alice 1)", async () => {
      const forBob = await ctx
        .http()
        .get('/logs')
        .query({ assistant_id: a.assistant })
        .set(bob.auth);
      expect(forBob.status).toBe(200);
      expect(forBob.body.data).toMatchObject({ logs: [], total: 0 });
      const byRoom = await ctx.http().get('/logs').query({ room_name: 'alice-room' }).set(bob.auth);
      expect(byRoom.body.data.total).toBe(0);
      const forAlice = await ctx
        .http()
        .get('/logs')
        .query({ assistant_id: a.assistant })
        .set(alice.auth);
      expect(forAlice.body.data.total).toBe(1);
    });

    it("bob's queue jobs cannot use alice's tool or mapping", async () => {
      const toolCall = await ctx.app
        .get<JobQueue<unknown, { status: string; error: string | null }>>(
          jobQueueToken(QUEUES.TOOL_CALL),
        )
        .request(
          { tool_id: a.tool, assistant_id: b.assistant, room_name: 'bob-room', arguments: {} },
          { waitMs: 20_000 },
        );
      expect(toolCall.status).toBe('error');
      const forAlice = await ctx
        .http()
        .get('/logs')
        .query({ room_name: 'bob-room' })
        .set(alice.auth);
      expect(forAlice.body.data.total).toBe(0);
    });
  });

  describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_NETWORKS=false)', () => {
    let ctx: TestContext;
    let user: TestUser;
    let server: CustomerServer;
    let loopbackName: string | null = null;

    const TARGETS = [
      'http://127.0.0.1/hook',
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://LOCALHOST./hook',
      'http://api.localhost/hook',
      'http://[::1]/hook',
      'http://10.0.0.1/hook',
      'http://172.16.5.4/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/hook',
      'http://2130706433/hook',
      'http://0x7f000001/hook',
      'http://0177.0.0.1/hook',
      'http://127.1/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://[::ffff:169.254.169.254]/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::]/hook',
      'https://user:pass@127.0.0.1/hook',
    ];

    beforeAll(async () => {
      [ctx, server] = await Promise.all([
        createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } }),
        startCustomerServer(),
      ]);
      user = await ctx.newUser();
      // A host name (not "localhost") that resolves to loopback on this machine, from /etc/hosts.
      for (const name of ['vm', 'runsc', 'ip6-localhost', 'ip6-loopback']) {
        try {
          const addresses = await lookup(name, { all: true });
          if (
            addresses.length > 0 &&
            addresses.every((x) => x.address === '127.0.0.1' || x.address === '::1')
          ) {
            loopbackName = name;
            break;
          }
        } catch {
          // not resolvable here
        }
      }
    });
    afterAll(async () => {
      await ctx.close();
      await server.close();
    });

    const targets = () =>
      loopbackName
        ? [...TARGETS, `http://${loopbackName}:${new URL(server.baseUrl).port}/hook`]
        : TARGETS;

    const expect400 = (
      res: { status: number; body: { data: { errors?: { field: string }[] } } },
      field: string,
      url: string,
    ) => {
      if (res.status !== 400 || !res.body.data.errors?.some((e) => e.field === field)) {
        return `${url} → ${res.status} ${JSON.stringify(res.body.data)} (expected 400 on ${field})`;
      }
      return null;
    };

    it('resolves at least one non-"localhost" host name to loopback on this machine', () => {
      // Documents the machine: the save-time DNS check is exercised only when such a name exists.
      expect(loopbackName).not.toBeNull();
    });

    it('refuses every target on create, for tool, strategy and end-call URLs', async () => {
      const failures: (string | null)[] = [];
      for (const url of targets()) {
        const tool = await ctx.http().post('/tool/create').set(user.auth).send({
          tool_name: 'ssrf',
          tool_description: 'd',
          tool_execution_type: 'webhook',
          tool_execution_config: { url },
        });
        failures.push(expect400(tool, 'tool_execution_config.url', url));
        const strategy = await ctx
          .http()
          .post('/inbound_context_strategy/create')
          .set(user.auth)
          .send({ strategy_name: 'ssrf', strategy_type: 'webhook', strategy_config: { url } });
        failures.push(expect400(strategy, 'strategy_config.url', url));
        const assistant = await ctx
          .http()
          .post('/assistant/create')
          .set(user.auth)
          .send(assistantBody({ assistant_end_call_url: url }));
        failures.push(expect400(assistant, 'assistant_end_call_url', url));
      }
      expect(failures.filter(Boolean)).toEqual([]);
    });

    it('refuses every target on update, leaving the stored URL', async () => {
      const tool = ok<{ tool_id: string }>(
        await ctx
          .http()
          .post('/tool/create')
          .set(user.auth)
          .send({
            tool_name: 'public',
            tool_description: 'd',
            tool_execution_type: 'webhook',
            tool_execution_config: { url: 'https://93.184.216.34/hook' },
          }),
        'public tool',
      );
      const strategy = ok<{ strategy_id: string }>(
        await ctx
          .http()
          .post('/inbound_context_strategy/create')
          .set(user.auth)
          .send({
            strategy_name: 'public',
            strategy_type: 'webhook',
            strategy_config: { url: 'https://93.184.216.34/lookup' },
          }),
        'public strategy',
      );
      const assistant = ok<{ assistant_id: string }>(
        await ctx
          .http()
          .post('/assistant/create')
          .set(user.auth)
          .send(assistantBody({ assistant_end_call_url: 'https://93.184.216.34/end' })),
        'public assistant',
      );
      const failures: (string | null)[] = [];
      for (const url of targets()) {
        failures.push(
          expect400(
            await ctx
              .http()
              .patch(`/tool/update/${tool.tool_id}`)
              .set(user.auth)
              .send({ tool_execution_config: { url } }),
            'tool_execution_config.url',
            url,
          ),
          expect400(
            await ctx
              .http()
              .patch(`/inbound_context_strategy/update/${strategy.strategy_id}`)
              .set(user.auth)
              .send({ strategy_config: { url } }),
            'strategy_config.url',
            url,
          ),
          expect400(
            await ctx
              .http()
              .patch(`/assistant/update/${assistant.assistant_id}`)
              .set(user.auth)
              .send({ assistant_end_call_url: url }),
            'assistant_end_call_url',
            url,
          ),
        );
      }
      expect(failures.filter(Boolean)).toEqual([]);
      expect(
        (await ctx.http().get(`/tool/details/${tool.tool_id}`).set(user.auth)).body.data
          .tool_execution_config.url,
      ).toBe('https://93.184.216.34/hook');
      expect(
        (
          await ctx
            .http()
            .get(`/inbound_context_strategy/details/${strategy.strategy_id}`)
            .set(user.auth)
        ).body.data.strategy_config.url,
      ).toBe('https://93.184.216.34/lookup');
      expect(
        (await ctx.http().get(`/assistant/details/${assistant.assistant_id}`).set(user.auth)).body
          .data.assistant_end_call_url,
      ).toBe('https://93.184.216.34/end');
    });

    it('the outbound client refuses loopback at request time, and a local server receives nothing', async () => {
      const client = ctx.app.get(OutboundHttpClient);
      expect(client.allowPrivateNetworks).toBe(false);
      const port = new URL(server.baseUrl).port;
      for (const url of [
        server.url('/direct'),
        `http://localhost:${port}/direct`,
        `http://[::ffff:127.0.0.1]:${port}/direct`,
        `http://2130706433:${port}/direct`,
      ]) {
        const result = await client.postJson({ url, body: { a: 1 }, timeoutMs: 2000 });
        expect({ url, kind: result.kind }).toEqual({ url, kind: 'blocked' });
      }
      expect(server.requestsTo('/direct')).toHaveLength(0);
    });

    it('the connect-time check refuses a name whose pre-request DNS answer looked public (DNS rebinding)', async () => {
      expect(loopbackName).not.toBeNull();
      const port = new URL(server.baseUrl).port;
      const client = new OutboundHttpClient({
        allowPrivateNetworks: false,
        preflightResolve: () => Promise.resolve(['93.184.216.34']),
      });
      try {
        const result = await client.postJson({
          url: `http://${loopbackName}:${port}/rebind`,
          body: {},
          timeoutMs: 2000,
        });
        expect(result.kind).toBe('blocked');
        expect(server.requestsTo('/rebind')).toHaveLength(0);
      } finally {
        client.destroy();
      }
    });
  });

  describe('no secret in any response, log line or activity-log entry', () => {
    let ctx: TestContext;
    let server: CustomerServer;
    let user: TestUser;
    const captured: string[] = [];
    const spies: jest.SpyInstance[] = [];
    const tag = randomBytes(6).toString('hex');
    const SECRETS = {
      ttsKey: `sk_tts_${tag}_SECRETTTS0001`,
      llmKey: `sk_llm_${tag}_SECRETLLM0002`,
      toolAuth: `Bearer tool_${tag}_SECRETAUTH0003`,
      toolApiKey: `tool_apikey_${tag}_SECRET0004`,
      toolToken: `tool_token_${tag}_SECRET0005`,
      strategyAuth: `Bearer strat_${tag}_SECRETAUTH0006`,
      strategyApiKey: `strat_apikey_${tag}_SECRET0007`,
    };
    /** Full secrets, and each one without its last four characters (masks may show those). */
    const needles = () =>
      Object.entries({ ...SECRETS, userApiKey: user.apiKey }).flatMap(([name, value]) => [
        [name, value],
        [`${name} (prefix)`, value.slice(0, -4)],
      ]);
    const leaksIn = (text: string) =>
      needles()
        .filter(([, v]) => text.includes(v))
        .map(([n]) => n);

    const responses: { what: string; text: string }[] = [];
    const record = async <T extends { status: number; text: string; body: { data: unknown } }>(
      what: string,
      req: PromiseLike<T>,
    ): Promise<T> => {
      const res = await req;
      responses.push({ what, text: res.text });
      return res;
    };

    let assistantId = '';
    let toolId = '';
    let strategyId = '';
    let inboundId = '';

    beforeAll(async () => {
      // Capture what pino writes to stdout (fd 1; sonic-boom uses fs.write / fs.writeSync).
      const stdoutFd = process.stdout.fd ?? 1;
      const asText = (data: unknown) =>
        typeof data === 'string'
          ? data
          : Buffer.isBuffer(data) || data instanceof Uint8Array
            ? Buffer.from(data).toString('utf8')
            : String(data);
      const realWrite = fs.write;
      const realWriteSync = fs.writeSync;
      spies.push(
        jest
          .spyOn(fs, 'writeSync')
          .mockImplementation((fd: number, data: unknown, ...rest: unknown[]) => {
            if (fd !== stdoutFd)
              return (realWriteSync as (...a: unknown[]) => number)(fd, data, ...rest);
            const text = asText(data);
            captured.push(text);
            return Buffer.byteLength(text);
          }),
        jest
          .spyOn(fs, 'write')
          .mockImplementation((fd: number, data: unknown, ...rest: unknown[]) => {
            if (fd !== stdoutFd) return (realWrite as (...a: unknown[]) => void)(fd, data, ...rest);
            const text = asText(data);
            captured.push(text);
            const callback = rest.find((r) => typeof r === 'function') as
              ((e: null, n: number) => void) | undefined;
            process.nextTick(() => callback?.(null, Buffer.byteLength(text)));
          }),
        jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
          captured.push(asText(chunk));
          return true;
        }),
      );
      [ctx, server] = await Promise.all([
        createTestApp({ env: { LOG_LEVEL: 'trace' } }),
        startCustomerServer(),
      ]);
      ctx.app.useLogger(ctx.app.get(Logger));
      server.respond('/tool', { status: 200, body: { ok: true } });
      server.respond('/lookup', { status: 200, body: { context: { name: 'Ada' } } });
      server.respond('/fails', { status: 500, body: { error: 'boom' } });
      user = await ctx.newUser(BOTH_SCOPES);
    });
    afterAll(async () => {
      for (const spy of spies) spy.mockRestore();
      await ctx.close();
      await server.close();
    });

    it('runs every route that stores, uses or returns a secret', async () => {
      const http = ctx.http;
      const auth = user.auth;
      const a = await record(
        'assistant create',
        http()
          .post('/assistant/create')
          .set(auth)
          .send(
            assistantBody({
              assistant_tts_config: { voice_id: 'v', api_key: SECRETS.ttsKey },
              assistant_llm_config: { api_key: SECRETS.llmKey },
              assistant_end_call_enabled: true,
              assistant_end_call_trigger_phrase: 'bye',
              assistant_end_call_agent_message: 'Goodbye',
              assistant_end_call_url: server.url('/end'),
            }),
          ),
      );
      assistantId = ok<{ assistant_id: string }>(a, 'assistant').assistant_id;
      const headers = {
        Authorization: SECRETS.toolAuth,
        'X-Api-Key': SECRETS.toolApiKey,
        'X-Access-Token': SECRETS.toolToken,
        'X-Tenant': 'acme',
      };
      const t = await record(
        'tool create',
        http()
          .post('/tool/create')
          .set(auth)
          .send({
            tool_name: 'order_status',
            tool_description: 'd',
            tool_parameters: [{ name: 'order_id', type: 'string' }],
            tool_execution_type: 'webhook',
            tool_execution_config: { url: server.url('/tool'), headers },
          }),
      );
      toolId = ok<{ tool_id: string }>(t, 'tool').tool_id;
      const failing = await record(
        'failing tool create',
        http()
          .post('/tool/create')
          .set(auth)
          .send({
            tool_name: 'failing',
            tool_description: 'd',
            tool_execution_type: 'webhook',
            tool_execution_config: { url: server.url('/fails'), headers },
          }),
      );
      const failingId = ok<{ tool_id: string }>(failing, 'failing tool').tool_id;
      await record(
        'attach',
        http()
          .post(`/tool/attach/${assistantId}`)
          .set(auth)
          .send({ tool_ids: [toolId, failingId] }),
      );
      const s = await record(
        'strategy create',
        http()
          .post('/inbound_context_strategy/create')
          .set(auth)
          .send({
            strategy_name: 'CRM',
            strategy_type: 'webhook',
            strategy_config: {
              url: server.url('/lookup'),
              headers: { Authorization: SECRETS.strategyAuth, 'X-Api-Key': SECRETS.strategyApiKey },
            },
          }),
      );
      strategyId = ok<{ strategy_id: string }>(s, 'strategy').strategy_id;
      const phone = uniquePhone();
      const i = await record(
        'inbound assign',
        http()
          .post('/inbound/assign')
          .set(auth)
          .send({
            assistant_id: assistantId,
            inbound_context_strategy_id: strategyId,
            service: 'exotel',
            inbound_config: { phone_number: phone },
          }),
      );
      inboundId = ok<{ inbound_id: string }>(i, 'inbound').inbound_id;

      // Updates that send the masks back (keep) and touch other fields.
      await record(
        'assistant update',
        http()
          .patch(`/assistant/update/${assistantId}`)
          .set(auth)
          .send({
            assistant_name: 'Renamed',
            assistant_tts_config: { api_key: '****0001' },
            assistant_llm_config: { voice: 'Kore' },
          }),
      );
      await record(
        'tool update',
        http()
          .patch(`/tool/update/${toolId}`)
          .set(auth)
          .send({
            tool_description: 'new',
            tool_execution_config: { headers: { Authorization: '****', 'X-Tenant': 'acme2' } },
          }),
      );
      await record(
        'strategy update',
        http()
          .patch(`/inbound_context_strategy/update/${strategyId}`)
          .set(auth)
          .send({ strategy_name: 'CRM 2', strategy_config: { headers: { 'X-Api-Key': '****' } } }),
      );
      await record(
        'inbound update',
        http().patch(`/inbound/update/${inboundId}`).set(auth).send({ is_active: true }),
      );
      // A validation error that echoes what was sent must not echo a secret either.
      await record(
        'tool create refused',
        http()
          .post('/tool/create')
          .set(auth)
          .send({
            tool_name: 'Bad Name',
            tool_description: 'd',
            tool_execution_type: 'webhook',
            tool_execution_config: {
              url: server.url('/tool'),
              headers: { Authorization: `${SECRETS.toolAuth}\r\n` },
            },
          }),
      );

      // Uses: a lookup, a dry run, a successful and a failing tool call, an end-call webhook.
      const lookup = await ctx.app
        .get<JobQueue<unknown, { status: string; context: unknown }>>(
          jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
        )
        .request(
          { room_name: 'sec-room', inbound_id: inboundId, caller_number: '+15550001111' },
          { waitMs: 20_000 },
        );
      expect(lookup).toMatchObject({ status: 'success', context: { name: 'Ada' } });
      await record(
        'strategy test',
        http().post(`/inbound_context_strategy/test/${strategyId}`).set(auth).send({}),
      );
      const toolQueue = ctx.app.get<JobQueue<unknown, { status: string }>>(
        jobQueueToken(QUEUES.TOOL_CALL),
      );
      expect(
        await toolQueue.request(
          {
            tool_id: toolId,
            assistant_id: assistantId,
            room_name: 'sec-room',
            arguments: { order_id: 'A1' },
          },
          { waitMs: 20_000 },
        ),
      ).toMatchObject({ status: 'success' });
      expect(
        await toolQueue.request(
          { tool_id: failingId, assistant_id: assistantId, room_name: 'sec-room', arguments: {} },
          { waitMs: 20_000 },
        ),
      ).toMatchObject({ status: 'error' });
      await ctx.app
        .get<JobQueue>(jobQueueToken(QUEUES.END_CALL_WEBHOOK))
        .add({ assistant_id: assistantId, room_name: 'sec-room', payload: { reason: 'hangup' } });
      await server.waitForRequests('/end', 1, 10_000);

      // The secrets really went out: the scans below would prove nothing otherwise.
      expect(server.requestsTo('/tool')[0].headers).toMatchObject({
        authorization: SECRETS.toolAuth,
        'x-api-key': SECRETS.toolApiKey,
      });
      expect(server.requestsTo('/lookup').map((r) => r.headers.authorization)).toContain(
        SECRETS.strategyAuth,
      );

      // Reads and lists of everything.
      for (const [what, path] of [
        ['assistant details', `/assistant/details/${assistantId}`],
        ['assistant list', '/assistant/list'],
        ['tool details', `/tool/details/${toolId}`],
        ['tool list', '/tool/list'],
        ['strategy details', `/inbound_context_strategy/details/${strategyId}`],
        ['strategy list', '/inbound_context_strategy/list'],
        ['inbound details', `/inbound/details/${inboundId}`],
        ['inbound list', '/inbound/list'],
        ['auth check', '/auth/check-key'],
        ['auth keys', '/auth/keys'],
      ]) {
        await record(what, http().get(path).set(auth));
      }
      // Entries are written asynchronously by some jobs: wait for the four expected ones (lookup, two tool calls, end-call).
      const deadline = Date.now() + 10_000;
      let logs = await record('logs', http().get('/logs').set(auth));
      while ((logs.body.data as { total: number }).total < 4 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        logs = await record('logs', http().get('/logs').set(auth));
      }
      expect((logs.body.data as { total: number }).total).toBeGreaterThanOrEqual(4);
    });

    it('no response body (but the runtime view) holds a secret', () => {
      expect(responses.length).toBeGreaterThan(20);
      const leaks = responses
        .map(({ what, text }) => ({ what, leaks: leaksIn(text) }))
        .filter((r) => r.leaks.length > 0);
      expect(leaks).toEqual([]);
    });

    it('GET /assistant/runtime/:id is the one documented exception: provider keys in clear, tool headers not', async () => {
      const res = await ctx.http().get(`/assistant/runtime/${assistantId}`).set(user.auth);
      expect(res.status).toBe(200);
      expect(res.text).toContain(SECRETS.ttsKey);
      expect(res.text).toContain(SECRETS.llmKey);
      expect(leaksIn(res.text).filter((n) => !/^(ttsKey|llmKey)/.test(n))).toEqual([]);
    });

    it('no activity-log row holds a secret (raw SELECT)', async () => {
      const table = ctx.dataSource.driver.escape('activity_logs');
      const rows: unknown[] = await ctx.dataSource.query(
        `SELECT * FROM ${table} WHERE user_id = ?`,
        [user.userId],
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      const text = JSON.stringify(rows);
      expect(text).toContain('sec-room');
      expect(leaksIn(text)).toEqual([]);
    });

    it('no service log line holds a secret (request logs, job warnings, errors)', () => {
      const text = captured.join('');
      // The capture works: pino request lines for the calls above are in it.
      expect(text).toContain('/assistant/create');
      expect(text).toContain('/tool/create');
      expect(leaksIn(text)).toEqual([]);
      expect(text).not.toContain(user.apiKey);
    });
  });
});
