import { randomUUID } from 'node:crypto';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import type { EndCallOutcome } from '../../../src/contracts/end-call-webhook.contract';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import {
  endCallWebhookContract,
  inboundContextLookupContract,
  toolCallContract,
} from '../../../src/contracts';
import { InboundContextStrategyEntity } from '../../../src/inbound-context/inbound-context-strategy.entity';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { webhookToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';
import { freePort } from '../../utils/free-port';
import { rebuildRouting } from '../../utils/rebuild-routing';

type Entry = { log_id: string; status: string; error_class: string | null; log_type: string };

/**
 * `error_class` end to end: real local receivers (503, 401, a slow one, bad JSON, a closed port,
 * an address the SSRF guard refuses), jobs added by the call stack's producer, and the class in
 * the job's result and in its activity-log entry alike; `GET /logs?error_class=` filters.
 */
describe('error_class (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    server: true,
    producer: true,
    app: { env: { END_CALL_WEBHOOK_ATTEMPTS: '2', END_CALL_WEBHOOK_BACKOFF_MS: '50' } },
  });
  let assistantId: string;
  let closedUrl: string;

  beforeAll(async () => {
    closedUrl = `http://127.0.0.1:${await freePort()}/hook`;
    suite.server.respond('/ok', { body: { context: { name: 'Asha' } } });
    suite.server.respond('/503', { status: 503, body: { error: 'down' } });
    suite.server.respond('/401', { status: 401, body: { error: 'who are you' } });
    suite.server.respond('/slow', { delayMs: 2000, body: { context: {} } });
    suite.server.respond('/bad-json', {
      headers: { 'content-type': 'application/json' },
      body: '{"context": {"name": "Asha"',
    });
    assistantId = (await assistantApi(suite.ctx, suite.user).create()).assistant_id;
  });

  const entriesOf = async (room: string): Promise<Entry[]> =>
    (
      await suite.ctx
        .http()
        .get('/logs')
        .query({ room_name: room })
        .set(suite.user.auth)
        .expect(200)
    ).body.data.logs as Entry[];

  async function lookup(url: string, config: Record<string, unknown> = {}) {
    const { inboundId } = await routeNumber(
      suite.ctx,
      suite.user,
      assistantId,
      strategyBody(url, config),
    );
    const room = `room-${randomUUID()}`;
    const result = await suite.producer.run<InboundContextLookupResult>(
      QUEUES.INBOUND_CONTEXT_LOOKUP,
      {
        room_name: room,
        inbound_id: inboundId,
      },
    );
    expect(inboundContextLookupContract.checkResult(result)).toEqual({ ok: true, data: result });
    return { result, entries: await entriesOf(room) };
  }

  it.each([
    ['/503', 'http_5xx', {}],
    ['/401', 'auth', {}],
    ['/slow', 'timeout', { timeout_seconds: 0.5 }],
    ['/bad-json', 'invalid_response', {}],
  ])('lookup to %s: %s in the result and the entry', async (path, errorClass, config) => {
    const { result, entries } = await lookup(suite.server.url(path), config);
    expect(result).toMatchObject({ status: 'error', error_class: errorClass });
    expect(entries).toEqual([
      expect.objectContaining({ status: 'error', error_class: errorClass }),
    ]);
  });

  it('lookup to a closed port: network', async () => {
    const { result, entries } = await lookup(closedUrl);
    expect(result).toMatchObject({ status: 'error', error_class: 'network' });
    expect(entries).toEqual([expect.objectContaining({ error_class: 'network' })]);
  });

  it('a successful lookup has no class, nor has its entry', async () => {
    const { result, entries } = await lookup(suite.server.url('/ok'));
    expect(result).toMatchObject({ status: 'success', error_class: null });
    expect(entries).toEqual([expect.objectContaining({ status: 'success', error_class: null })]);
  });

  it('an inactive strategy is config, and an unknown number is config with no entry', async () => {
    const { inboundId } = await routeNumber(
      suite.ctx,
      suite.user,
      assistantId,
      strategyBody(suite.server.url('/ok'), {}, { is_active: false }),
    );
    const room = `room-${randomUUID()}`;
    const inactive = await suite.producer.run<InboundContextLookupResult>(
      QUEUES.INBOUND_CONTEXT_LOOKUP,
      {
        room_name: room,
        inbound_id: inboundId,
      },
    );
    expect(inactive).toMatchObject({ status: 'error', error_class: 'config' });
    expect(await entriesOf(room)).toEqual([expect.objectContaining({ error_class: 'config' })]);
    const unknown = await suite.producer.run<InboundContextLookupResult>(
      QUEUES.INBOUND_CONTEXT_LOOKUP,
      {
        room_name: room,
        inbound_number: '+91 99999 00000',
      },
    );
    expect(unknown).toMatchObject({ status: 'error', error_class: 'config', log_id: null });
    expect(await entriesOf(room)).toHaveLength(1);
  });

  async function toolCall(url: string, args: unknown = {}) {
    const { tool_id } = await toolApi(suite.ctx, suite.user).create(
      webhookToolBody({ url, timeout: 2 }, { tool_name: `t_${randomUUID().slice(0, 8)}` }),
    );
    await toolApi(suite.ctx, suite.user).attach(assistantId, [tool_id]);
    const room = `room-${randomUUID()}`;
    const result = await suite.producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id,
      assistant_id: assistantId,
      room_name: room,
      arguments: args,
    });
    expect(toolCallContract.checkResult(result)).toEqual({ ok: true, data: result });
    return { result, entries: await entriesOf(room) };
  }

  it.each([
    ['/401', 'auth'],
    ['/503', 'http_5xx'],
  ])('tool call to %s: %s in the result and the entry', async (path, errorClass) => {
    const { result, entries } = await toolCall(suite.server.url(path));
    expect(result).toMatchObject({ status: 'error', error_class: errorClass });
    expect(entries).toEqual([expect.objectContaining({ error_class: errorClass })]);
  });

  it('tool call to a closed port: network; arguments the tool refuses: config', async () => {
    const closed = await toolCall(closedUrl);
    expect(closed.result.error_class).toBe('network');
    expect(closed.entries).toEqual([expect.objectContaining({ error_class: 'network' })]);
    const refused = await toolCall(suite.server.url('/ok'), 'not an object');
    expect(refused.result).toMatchObject({ status: 'error', error_class: 'config' });
    expect(refused.entries).toEqual([expect.objectContaining({ error_class: 'config' })]);
  });

  it('end-call to a 503: the attempt is http_5xx (result and entry), the last one fails naming it', async () => {
    const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({ assistant_end_call_url: suite.server.url('/503') }),
    );
    const room = `room-${randomUUID()}`;
    const first = await suite.producer.run<EndCallOutcome>(QUEUES.END_CALL_WEBHOOK, {
      assistant_id,
      room_name: room,
      payload: { call_id: room },
    });
    expect(endCallWebhookContract.checkResult(first)).toEqual({ ok: true, data: first });
    expect(first).toMatchObject({ status: 'retry', error_class: 'http_5xx' });
    await suite.server.waitForRequests('/503', 1);
    const deadline = Date.now() + 10_000;
    let entries: Entry[] = [];
    while (entries.length < 2 && Date.now() < deadline) {
      entries = await entriesOf(room);
      if (entries.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(entries).toEqual([
      expect.objectContaining({ error_class: 'http_5xx' }),
      expect.objectContaining({ error_class: 'http_5xx' }),
    ]);
  });

  it('GET /logs?error_class= returns only that class; a bad value is 400 naming the field', async () => {
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ error_class: 'auth', limit: 100 })
      .set(suite.user.auth)
      .expect(200);
    const logs = res.body.data.logs as Entry[];
    expect(logs).toHaveLength(2);
    expect(res.body.data.total).toBe(logs.length);
    expect(new Set(logs.map((e) => e.error_class))).toEqual(new Set(['auth']));
    expect(new Set(logs.map((e) => e.log_type))).toEqual(
      new Set(['inbound_context_lookup', 'tool_call']),
    );
    const bad = await suite.ctx
      .http()
      .get('/logs')
      .query({ error_class: 'http_error' })
      .set(suite.user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors).toEqual([expect.objectContaining({ field: 'error_class' })]);
    const stranger = await suite.ctx.newUser();
    const none = await suite.ctx
      .http()
      .get('/logs')
      .query({ error_class: 'auth' })
      .set(stranger.auth);
    expect(none.body.data).toMatchObject({ logs: [], total: 0 });
  });
});

describe('error_class blocked (e2e, WEBHOOK_ALLOW_PRIVATE_NETWORKS=false)', () => {
  const suite = appSuite({
    server: true,
    producer: true,
    app: { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } },
  });

  it('a strategy whose URL now points at a refused address: blocked, in the result and the entry', async () => {
    const user = await suite.ctx.newUser();
    const { assistant_id } = await assistantApi(suite.ctx, user).create();
    // Saved while private networks were allowed (the save-time check refuses it now).
    const { inboundId, strategy } = await routeNumber(
      suite.ctx,
      user,
      assistant_id,
      strategyBody('https://93.184.215.14/hook'),
    );
    const repo = suite.ctx.dataSource.getRepository(InboundContextStrategyEntity);
    const row = await repo.findOneByOrFail({ strategy_id: strategy.strategy_id });
    row.strategy_config = { ...row.strategy_config, url: suite.server.url('/ok') };
    await repo.save(row);
    await rebuildRouting(suite.ctx);
    const room = `room-${randomUUID()}`;
    const result = await suite.producer.run<InboundContextLookupResult>(
      QUEUES.INBOUND_CONTEXT_LOOKUP,
      {
        room_name: room,
        inbound_id: inboundId,
      },
    );
    expect(result).toMatchObject({ status: 'error', error_class: 'blocked' });
    expect(suite.server.requests).toHaveLength(0);
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: room, error_class: 'blocked' })
      .set(user.auth)
      .expect(200);
    expect(res.body.data.logs).toEqual([expect.objectContaining({ error_class: 'blocked' })]);
  });
});
