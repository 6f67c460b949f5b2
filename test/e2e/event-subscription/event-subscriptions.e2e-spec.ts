import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import { signStandardWebhook } from '../../../src/common/http/webhook-signature';
import type { EventDeliveryRequestData } from '../../../src/event-subscription/event-delivery-entry';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { dataOf } from '../../api/envelope';
import { appSuite, type TestUser } from '../../utils/create-test-app';
import type { RecordedRequest } from '../../utils/customer-server';

interface Created {
  subscription_id: string;
  secret: string;
  url: string;
  events: string[];
  description: string | null;
}

type DeliveryEntry = LogEntryDto & { request_data: EventDeliveryRequestData };

/** The request's Standard Webhooks signature, checked with the subscription's secret. */
function expectSignedWith(secret: string, request: RecordedRequest): void {
  const id = String(request.headers['webhook-id']);
  const timestamp = Number(request.headers['webhook-timestamp']);
  expect(request.headers['webhook-signature']).toBe(
    signStandardWebhook(secret, id, timestamp, request.rawBody),
  );
}

/**
 * A tenant's event subscriptions: CRUD scoped to the caller, the signing secret shown once, and
 * deliveries: one signed event per configuration change with its audit id, a ping, every attempt
 * an `event_delivery` entry of `/logs` that can be replayed.
 */
describe('Event subscriptions (e2e)', () => {
  const suite = appSuite({
    users: ['user', 'other'],
    server: true,
    app: { env: { END_CALL_WEBHOOK_BACKOFF_MS: '20' } },
  });
  const http = () => suite.ctx.http();

  const create = (user: TestUser, body: object) =>
    http().post('/event-subscription/create').set(user.auth).send(body);
  const subscribe = (user: TestUser, path: string, events: string[]) =>
    dataOf<Created>(
      'POST /event-subscription/create',
      create(user, { url: suite.server.url(path), events }),
    );
  const deliveries = async (user: TestUser) =>
    (
      await dataOf<{ logs: DeliveryEntry[] }>(
        'GET /logs',
        http().get('/logs').query({ log_type: 'event_delivery', limit: 100 }).set(user.auth),
      )
    ).logs;

  it('creates, reads, updates and deletes a subscription; the secret is answered once', async () => {
    const res = await create(suite.user, {
      url: suite.server.url('/crud'),
      events: ['config.changed', 'check.failed'],
      description: 'Ops',
    }).expect(200);
    const created = res.body.data as Created;
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({
      events: ['config.changed', 'check.failed'],
      description: 'Ops',
    });
    const id = created.subscription_id;

    const details = await http()
      .get(`/event-subscription/details/${id}`)
      .set(suite.user.auth)
      .expect(200);
    expect(details.body.data).not.toHaveProperty('secret');
    expect(JSON.stringify(details.body)).not.toContain(created.secret);
    const list = await http().get('/event-subscription/list').set(suite.user.auth).expect(200);
    expect(list.body.data.items.map((s: Created) => s.subscription_id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    const updated = await http()
      .patch(`/event-subscription/update/${id}`)
      .set(suite.user.auth)
      .send({ events: ['split.reverted'], description: null })
      .expect(200);
    expect(updated.body.data).toMatchObject({ events: ['split.reverted'], description: null });

    // Another user's subscription does not exist for them.
    await http().get(`/event-subscription/details/${id}`).set(suite.other.auth).expect(404);
    await http()
      .patch(`/event-subscription/update/${id}`)
      .set(suite.other.auth)
      .send({ description: 'x' })
      .expect(404);
    await http().post(`/event-subscription/test/${id}`).set(suite.other.auth).expect(404);
    await http().delete(`/event-subscription/delete/${id}`).set(suite.other.auth).expect(404);

    await http().delete(`/event-subscription/delete/${id}`).set(suite.user.auth).expect(200);
    await http().get(`/event-subscription/details/${id}`).set(suite.user.auth).expect(404);
  });

  it.each([
    ['an unknown event type', { events: ['config.changed', 'call.started'] }, 'events'],
    ['an empty list', { events: [] }, 'events'],
    ['no events', { events: undefined }, 'events'],
    ['a URL that is not http(s)', { url: 'ftp://example.com/x' }, 'url'],
  ])('refuses %s with a 400 naming the field', async (_what, over, field) => {
    const body = { url: suite.server.url('/bad'), events: ['config.changed'], ...over };
    const res = await create(suite.user, body).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('delivers one signed config.changed event per change, with the audit entry id', async () => {
    const user = await suite.ctx.newUser();
    const sub = await subscribe(user, '/config', ['config.changed']);
    const assistant = await assistantApi(suite.ctx, user).create();
    await http()
      .patch(`/assistant/update/${assistant.assistant_id}`)
      .set(user.auth)
      .send({ assistant_name: 'Renamed' })
      .expect(200);
    // Another user's changes are not this subscription's business.
    await assistantApi(suite.ctx, suite.other).create();

    // The subscription's own creation is a change too (its audit entry), then the two changes.
    const requests = await suite.server.waitForRequests('/config', 3, 15_000);
    const audit = await dataOf<{
      items: Array<{
        audit_id: string;
        action: string;
        resource_type: string;
        resource_id: string;
      }>;
    }>('GET /audit', http().get('/audit').set(user.auth));
    // The user's API key was audited before the subscription existed.
    audit.items = audit.items.filter((a) => a.resource_type !== 'api_key');
    expect(audit.items).toHaveLength(3);
    const events = requests.map(
      (r) =>
        r.json as { id: string; type: string; timestamp: string; data: Record<string, unknown> },
    );
    const byAuditId = (a: { audit_id?: unknown }, b: { audit_id?: unknown }) =>
      String(a.audit_id).localeCompare(String(b.audit_id));
    expect(events.map((e) => e.data).sort(byAuditId)).toEqual(
      audit.items
        .map(({ audit_id, action, resource_type, resource_id }) => ({
          audit_id,
          action,
          resource_type,
          resource_id,
        }))
        .sort(byAuditId),
    );
    expect(audit.items.map((a) => [a.resource_type, a.action]).sort()).toEqual([
      ['assistant', 'create'],
      ['assistant', 'update'],
      ['event_subscription', 'create'],
    ]);
    for (const [i, request] of requests.entries()) {
      expect(events[i]).toMatchObject({
        type: 'config.changed',
        id: expect.stringMatching(/^evt_/),
      });
      expect(Number.isNaN(Date.parse(events[i].timestamp))).toBe(false);
      expectSignedWith(sub.secret, request);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    // Nothing more arrives: one event per change.
    await new Promise((r) => setTimeout(r, 300));
    expect(suite.server.requestsTo('/config')).toHaveLength(3);

    const logged = (await deliveries(user)).filter(
      (e) => e.request_data.subscription_id === sub.subscription_id,
    );
    expect(logged).toHaveLength(3);
    expect(
      logged.every((e) => e.status === 'success' && e.request_data.event_type === 'config.changed'),
    ).toBe(true);
    expect(JSON.stringify(logged)).not.toContain(sub.secret);
  });

  it("audits a subscription's create, update and delete (never its secret), each a config.changed event", async () => {
    const user = await suite.ctx.newUser();
    const watcher = await subscribe(user, '/watch', ['config.changed']);
    const sub = await subscribe(user, '/audited', ['check.failed']);
    const id = sub.subscription_id;
    await http()
      .patch(`/event-subscription/update/${id}`)
      .set(user.auth)
      .send({ events: ['check.failed', 'split.reverted'], description: 'Ops' })
      .expect(200);
    await http().delete(`/event-subscription/delete/${id}`).set(user.auth).expect(200);

    const audit = await dataOf<{
      items: Array<{
        audit_id: string;
        action: string;
        actor: { user_id: string | null };
        changes: Array<{ field: string; before: unknown; after: unknown }>;
      }>;
    }>(
      'GET /audit',
      http()
        .get('/audit')
        .query({ resource_type: 'event_subscription', resource_id: id })
        .set(user.auth),
    );
    expect(audit.items.map((a) => a.action)).toEqual(['delete', 'update', 'create']);
    const [deleted, updated, created] = audit.items;
    expect(created.actor.user_id).toBe(user.userId);
    expect(created.changes).toEqual(
      expect.arrayContaining([
        { field: 'url', before: null, after: suite.server.url('/audited') },
        { field: 'events', before: null, after: ['check.failed'] },
      ]),
    );
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'events', before: ['check.failed'], after: ['check.failed', 'split.reverted'] },
        { field: 'description', before: null, after: 'Ops' },
      ]),
    );
    expect(deleted.changes).toEqual(
      expect.arrayContaining([{ field: 'subscription_id', before: id, after: null }]),
    );
    expect(JSON.stringify(audit)).not.toContain(sub.secret);
    expect(JSON.stringify(audit)).not.toContain('whsec_');

    // The watcher hears of its own creation and of the three changes of the other subscription.
    const requests = await suite.server.waitForRequests('/watch', 4, 15_000);
    const heard = requests
      .map((r) => (r.json as { data: { resource_id: string; action: string } }).data)
      .filter((d) => d.resource_id === id)
      .map((d) => d.action)
      .sort();
    expect(heard).toEqual(['create', 'delete', 'update']);
    expect(requests.map((r) => r.rawBody).join('\n')).not.toContain('whsec_');
    expect(watcher.secret).not.toBe(sub.secret);
    // The subscription deleted received nothing: it never took config.changed.
    expect(suite.server.requestsTo('/audited')).toHaveLength(0);
  });

  it('raises endpoint.unhealthy once when a strategy endpoint starts failing, endpoint.recovered once when it heals', async () => {
    const user = await suite.ctx.newUser();
    const sub = await subscribe(user, '/health-events', [
      'endpoint.unhealthy',
      'endpoint.recovered',
    ]);
    const assistant = await assistantApi(suite.ctx, user).create();
    const { phone } = await routeNumber(
      suite.ctx,
      user,
      assistant.assistant_id,
      strategyBody(suite.server.url('/flaky')),
    );
    const client = suite.ctx.app.get(InboundContextLookupClient);
    const lookups = async (n: number) => {
      for (let i = 0; i < n; i++)
        await client.lookup(
          { room_name: `room-${randomUUID()}`, inbound_number: phone },
          { waitMs: 15_000 },
        );
    };
    const events = () =>
      suite.server
        .requestsTo('/health-events')
        .map((r) => r.json as { type: string; data: Record<string, unknown> });

    suite.server.respond('/flaky', { status: 500 });
    await lookups(9);
    // Below the minimum of attempts: not judged yet.
    await new Promise((r) => setTimeout(r, 300));
    expect(events()).toEqual([]);
    await lookups(5);
    const [unhealthy] = await suite.server.waitForRequests('/health-events', 1, 15_000);
    expect(unhealthy.json).toMatchObject({
      type: 'endpoint.unhealthy',
      data: { origin: suite.server.baseUrl, attempts: 10, errors: 10, window_seconds: 300 },
    });
    expectSignedWith(sub.secret, unhealthy);

    suite.server.respond('/flaky', { body: { context: { name: 'Asha' } } });
    await lookups(16);
    await suite.server.waitForRequests('/health-events', 2, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(events().map((e) => e.type)).toEqual(['endpoint.unhealthy', 'endpoint.recovered']);
    expect(events()[1].data).toMatchObject({
      origin: suite.server.baseUrl,
      attempts: 28,
      errors: 14,
    });
  });

  it("counts an endpoint's health only once its owner subscribes: failures before do not count", async () => {
    const user = await suite.ctx.newUser();
    const assistant = await assistantApi(suite.ctx, user).create();
    const { phone } = await routeNumber(
      suite.ctx,
      user,
      assistant.assistant_id,
      strategyBody(suite.server.url('/failing-before')),
    );
    suite.server.respond('/failing-before', { status: 500 });
    const client = suite.ctx.app.get(InboundContextLookupClient);
    const lookups = async (n: number) => {
      for (let i = 0; i < n; i++)
        await client.lookup(
          { room_name: `room-${randomUUID()}`, inbound_number: phone },
          { waitMs: 15_000 },
        );
    };
    await lookups(10);
    // Their entries committed (what health counts from) before anyone subscribes.
    for (;;) {
      const logs = await dataOf<{ logs: LogEntryDto[] }>(
        'GET /logs',
        http().get('/logs').query({ log_type: 'inbound_context_lookup' }).set(user.auth),
      );
      if (logs.logs.length >= 10) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await subscribe(user, '/late-health', ['endpoint.unhealthy']);
    // Had the 10 earlier failures counted, this one would be the 11th and raise the event.
    await lookups(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(suite.server.requestsTo('/late-health')).toHaveLength(0);
    await lookups(9);
    const [unhealthy] = await suite.server.waitForRequests('/late-health', 1, 15_000);
    expect(unhealthy.json).toMatchObject({
      type: 'endpoint.unhealthy',
      data: { origin: suite.server.baseUrl, attempts: 10, errors: 10 },
    });
  });

  it('raises check.failed for a check that does not pass, and retries a subscriber that answers 500', async () => {
    const user = await suite.ctx.newUser();
    const sub = await subscribe(user, '/checks', ['check.failed']);
    let n = 0;
    suite.server.respond('/checks', () => (n++ < 2 ? { status: 500 } : { status: 204 }));
    const assistant = await assistantApi(suite.ctx, user).create();
    // No test case: the check does not pass.
    const check = await dataOf<{ check_id: string; passed: boolean }>(
      'POST /assistant/check',
      http()
        .post(`/assistant/check/${assistant.assistant_id}`)
        .set(user.auth)
        .send({ version: null }),
    );
    expect(check.passed).toBe(false);
    const requests = await suite.server.waitForRequests('/checks', 3, 15_000);
    expect(requests.map((r) => r.json)).toEqual(
      Array(3).fill(
        expect.objectContaining({
          type: 'check.failed',
          data: expect.objectContaining({
            check_id: check.check_id,
            assistant_id: assistant.assistant_id,
            version: null,
          }),
        }),
      ),
    );
    // One delivery: the same webhook-id and body on every attempt, each signed.
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);
    for (const request of requests) expectSignedWith(sub.secret, request);
    const logged = await deliveries(user);
    expect(logged.map((e) => [e.request_data.attempt, e.status]).sort()).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'success'],
    ]);
  });

  it('raises number.overflow once per room refused at the cap of concurrent calls', async () => {
    const user = await suite.ctx.newUser();
    const sub = await subscribe(user, '/overflow', ['number.overflow']);
    const assistant = await assistantApi(suite.ctx, user).create();
    const mapping = await dataOf<{ inbound_id: string }>(
      'POST /inbound/assign',
      http()
        .post('/inbound/assign')
        .set(user.auth)
        .send(
          inboundBody(assistant.assistant_id, {
            policy: { max_concurrent_calls: 1, overflow: { action: 'reject', message: 'Busy' } },
          }),
        ),
    );
    const client = suite.ctx.app.get(InboundContextLookupClient);
    const lookup = (room: string) =>
      client.lookup({ room_name: room, inbound_id: mapping.inbound_id }, { waitMs: 15_000 });
    const [first, second] = [`room-${randomUUID()}`, `room-${randomUUID()}`];
    expect((await lookup(first)).policy?.outcome).toBe('open');
    expect((await lookup(second)).policy?.outcome).toBe('overflow');
    // The same room asking again is the same overflow: no second event.
    expect((await lookup(second)).policy?.outcome).toBe('overflow');
    const [request] = await suite.server.waitForRequests('/overflow', 1, 15_000);
    expect(request.json).toMatchObject({
      type: 'number.overflow',
      data: { inbound_id: mapping.inbound_id, room_name: second, max_concurrent_calls: 1 },
    });
    expectSignedWith(sub.secret, request);
    await new Promise((r) => setTimeout(r, 300));
    expect(suite.server.requestsTo('/overflow')).toHaveLength(1);
  });

  it('pings, replays a delivery with the same webhook-id, and says when a ping failed', async () => {
    const sub = await subscribe(suite.user, '/ping', ['check.failed']);
    const sendPing = () =>
      http()
        .post(`/event-subscription/test/${sub.subscription_id}`)
        .set(suite.user.auth)
        .expect(200);
    suite.server.respond('/ping', { status: 200 });
    const ping = await sendPing();
    expect(ping.body.data).toMatchObject({ status: 'delivered', status_code: 200 });
    const [request] = suite.server.requestsTo('/ping');
    expect(request.json).toMatchObject({ type: 'ping', id: ping.body.data.event_id });
    expectSignedWith(sub.secret, request);

    const replay = await http()
      .post(`/logs/replay/${ping.body.data.log_id}`)
      .set(suite.user.auth)
      .expect(200);
    expect(replay.body.data).toMatchObject({
      log_type: 'event_delivery',
      replay_of: ping.body.data.log_id,
    });
    const [, again] = await suite.server.waitForRequests('/ping', 2);
    expect(again.headers['webhook-id']).toBe(request.headers['webhook-id']);
    expect(again.rawBody).toBe(request.rawBody);
    expectSignedWith(sub.secret, again);

    // A failing subscriber: a ping answers failed, and is an error entry.
    suite.server.respond('/ping', { status: 500 });
    const failed = await sendPing();
    expect(failed.body.data).toMatchObject({ status: 'failed', status_code: 500 });
    const entry = (await deliveries(suite.user)).find((e) => e.log_id === failed.body.data.log_id);
    expect(entry).toMatchObject({ status: 'error', error_class: 'http_5xx' });
  });
});

describe('Event subscriptions behind the address guard (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    app: { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } },
  });

  it.each([
    ['create', 'post', '/event-subscription/create'],
    ['update', 'patch', '/event-subscription/update/'],
  ] as const)(
    'refuses a private address on %s with a 400 naming url',
    async (verb, method, path) => {
      let target = path as string;
      if (verb === 'update') {
        // Created through the guard with a public address literal (nothing is sent on create).
        const created = await dataOf<Created>(
          'POST /event-subscription/create',
          suite.ctx
            .http()
            .post('/event-subscription/create')
            .set(suite.user.auth)
            .send({ url: 'https://93.184.215.14/hooks', events: ['config.changed'] }),
        );
        target += created.subscription_id;
      }
      const res = await suite.ctx
        .http()
        [method](target)
        .set(suite.user.auth)
        .send({ url: 'http://169.254.169.254/latest/meta-data', events: ['config.changed'] })
        .expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['url']);
    },
  );
});
