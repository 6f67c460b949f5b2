import { randomUUID } from 'node:crypto';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { toolApi } from '../../api/tool-api';
import { strategyBody } from '../../fixtures/strategy';
import { webhookToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

interface Target {
  target: string;
  log_types: string[];
  attempts: number;
  errors: number;
  error_rate: number;
  by_error_class: Record<string, number>;
  latency_ms: { p50: number | null; p95: number | null };
  last_success_at: string | null;
  last_error_at: string | null;
}

/**
 * `GET /logs/health`: per URL origin, from the hourly counters written with the entries. Two real
 * receivers (two origins): one healthy, one answering 503 to lookups and 401 to a tool.
 */
describe('GET /logs/health (e2e)', () => {
  let ctx: TestContext;
  let healthy: CustomerServer;
  let failing: CustomerServer;
  let producer: CallProducer;
  let user: TestUser;

  const health = async (query: Record<string, string> = {}, who = user) =>
    (await ctx.http().get('/logs/health').query(query).set(who.auth).expect(200)).body.data as {
      from: string;
      to: string;
      targets: Target[];
    };

  beforeAll(async () => {
    [healthy, failing] = await Promise.all([CustomerServer.start(), CustomerServer.start()]);
    ctx = await createTestApp();
    producer = new CallProducer(ctx);
    user = await ctx.newUser();
    healthy.respond('/context', { delayMs: 30, body: { context: { name: 'Asha' } } });
    failing.respond('/context', { status: 503 });
    failing.respond('/tool', { status: 401 });
    const { assistant_id } = await assistantApi(ctx, user).create();
    const ok = await routeNumber(ctx, user, assistant_id, strategyBody(healthy.url('/context')));
    const down = await routeNumber(ctx, user, assistant_id, strategyBody(failing.url('/context')));
    const lookup = (inbound_id: string) =>
      producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
        room_name: `room-${randomUUID()}`,
        inbound_id,
      });
    for (let i = 0; i < 3; i++) expect((await lookup(ok.inboundId)).status).toBe('success');
    for (let i = 0; i < 2; i++) expect((await lookup(down.inboundId)).error_class).toBe('http_5xx');
    const { tool_id } = await toolApi(ctx, user).create(
      webhookToolBody({ url: failing.url('/tool') }),
    );
    await toolApi(ctx, user).attach(assistant_id, [tool_id]);
    const tool = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id,
      assistant_id,
      room_name: `room-${randomUUID()}`,
      arguments: {},
    });
    expect(tool.error_class).toBe('auth');
  });

  afterAll(async () => {
    await producer?.close();
    await ctx?.close();
    await Promise.all([healthy?.close(), failing?.close()]);
  });

  it('answers per origin, most errors first, with the numbers the entries hold', async () => {
    const data = await health();
    expect(data.targets).toEqual([
      {
        target: failing.baseUrl,
        log_types: ['inbound_context_lookup', 'tool_call'],
        attempts: 3,
        errors: 3,
        error_rate: 1,
        by_error_class: { http_5xx: 2, auth: 1 },
        latency_ms: { p50: expect.any(Number), p95: expect.any(Number) },
        last_success_at: null,
        last_error_at: expect.any(String),
      },
      {
        target: healthy.baseUrl,
        log_types: ['inbound_context_lookup'],
        attempts: 3,
        errors: 0,
        error_rate: 0,
        by_error_class: {},
        latency_ms: { p50: expect.any(Number), p95: expect.any(Number) },
        last_success_at: expect.any(String),
        last_error_at: null,
      },
    ]);
    const [, ok] = data.targets;
    expect(ok.latency_ms.p50).toBeGreaterThanOrEqual(25);
    expect(ok.latency_ms.p95).toBeGreaterThanOrEqual(ok.latency_ms.p50!);
    // The same numbers as the entries themselves.
    const logs = await ctx.http().get('/logs').query({ limit: 100 }).set(user.auth).expect(200);
    const entries = logs.body.data.logs as { status: string; request_data: { url: string } }[];
    for (const target of data.targets) {
      const mine = entries.filter((e) => e.request_data.url.startsWith(`${target.target}/`));
      expect(mine).toHaveLength(target.attempts);
      expect(mine.filter((e) => e.status === 'error')).toHaveLength(target.errors);
    }
    expect(Date.parse(data.to) - Date.parse(data.from)).toBe(25 * 3600 * 1000);
  });

  it('filters by log_type and range; another user sees none of it', async () => {
    const tools = await health({ log_type: 'tool_call' });
    expect(tools.targets).toEqual([
      expect.objectContaining({
        target: failing.baseUrl,
        attempts: 1,
        by_error_class: { auth: 1 },
      }),
    ]);
    const past = await health({ from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' });
    expect(past).toEqual({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-01-02T01:00:00.000Z',
      targets: [],
    });
    expect((await health({}, await ctx.newUser())).targets).toEqual([]);
  });

  it('refuses a bad range or log type with 400 naming the field', async () => {
    for (const [query, field] of [
      [{ from: 'yesterday' }, 'from'],
      [{ log_type: 'sms' }, 'log_type'],
      [{ from: '2025-01-02T00:00:00Z', to: '2025-01-01T00:00:00Z' }, 'from'],
    ] as const) {
      const res = await ctx.http().get('/logs/health').query(query).set(user.auth);
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([expect.objectContaining({ field })]);
    }
  });
});
