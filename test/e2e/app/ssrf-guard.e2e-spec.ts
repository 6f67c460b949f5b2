/**
 * The SSRF guard, checked end to end: customer URLs aimed at loopback, private, link-local or
 * metadata addresses are refused when saved (create and update) and when the request connects.
 */
import { lookup } from 'node:dns/promises';
import { OutboundHttpClient } from '../../../src/common/http/outbound-http.client';
import { assistantApi } from '../../api/assistant-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { webhookToolBody } from '../../fixtures/tool';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';

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
    const tool = await toolApi(ctx, user).create(
      webhookToolBody({ url: 'https://93.184.216.34/hook' }, { tool_name: 'public' }),
    );
    const strategy = await strategyApi(ctx, user).create(
      strategyBody('https://93.184.216.34/lookup', {}, { strategy_name: 'public' }),
    );
    const assistant = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: 'https://93.184.216.34/end' }),
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
