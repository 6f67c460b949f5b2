import { randomUUID } from 'node:crypto';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { EndpointHealthStore } from '../../../src/event-subscription/endpoint-health';
import { EndpointHealthEvents } from '../../../src/event-subscription/endpoint-health-events';
import { TenantEvents } from '../../../src/event-subscription/tenant-events';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { RoutingBuilder } from '../../../src/lookup/routing/routing-builder';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite, type TestUser } from '../../utils/create-test-app';

/** A lookup's own log entry (its counters, its transaction, a block of the log's ids). */
const LOG_WRITE = /activity_log|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

/**
 * Whether a lookup's entry counts for its endpoint's health (the owner subscribes to
 * `endpoint.unhealthy` or `endpoint.recovered`) is in the owner's routing record: a lookup, and
 * the counting of the entry it writes, read no subscription from the database, for an owner with
 * a subscription and one without; a subscription's create and delete reach the record at once.
 */
describe('lookup routing: the endpoint-health flag (e2e)', () => {
  const suite = appSuite({ users: ['subscriber', 'other'], server: true });

  const app = () => suite.ctx.app;
  const lookup = (inboundId: string) =>
    app()
      .get(InboundContextLookupService)
      .run({ room_name: `room-${randomUUID()}`, inbound_id: inboundId });

  async function routed(user: TestUser): Promise<string> {
    const path = `/health-${randomUUID().slice(0, 8)}`;
    suite.server.respond(path, { body: { context: { name: 'Asha' } } });
    const { assistant_id } = await assistantApi(suite.ctx, user).create(assistantBody());
    const { inboundId } = await routeNumber(
      suite.ctx,
      user,
      assistant_id,
      strategyBody(suite.server.url(path)),
    );
    return inboundId;
  }

  /**
   * Runs `work` (lookups), then waits for their entries to be committed and counted: the SQL
   * statements run meanwhile but the log's own, and the owners whose attempts were counted.
   */
  async function during(work: () => Promise<void>): Promise<{ sql: string[]; counted: string[] }> {
    const sql: string[] = [];
    const counted: string[] = [];
    const judged: Promise<unknown>[] = [];
    const events = app().get(EndpointHealthEvents);
    const observe = events.observe.bind(events);
    const store = app().get(EndpointHealthStore);
    const count = store.observe.bind(store);
    const spies = [
      jest.spyOn(suite.ctx.dataSource.logger, 'logQuery').mockImplementation((query: string) => {
        if (!LOG_WRITE.test(query)) sql.push(query);
      }),
      jest.spyOn(events, 'observe').mockImplementation((...args) => {
        const run = observe(...args);
        judged.push(run);
        return run;
      }),
      jest.spyOn(store, 'observe').mockImplementation((userId, ...rest) => {
        counted.push(userId);
        return count(userId, ...rest);
      }),
    ];
    try {
      await work();
      await app().get(ActivityLogService).onModuleDestroy();
      await Promise.all(judged);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return { sql, counted };
  }

  const subscribe = (user: TestUser) =>
    suite.ctx
      .http()
      .post('/event-subscription/create')
      .set(user.auth)
      .send({ url: suite.server.url('/events'), events: ['endpoint.unhealthy'] })
      .expect(200);

  it('a lookup for an owner with and without a subscription sends no SELECT; only the subscriber is counted', async () => {
    const [subscribed, unsubscribed] = [suite.subscriber, suite.other];
    const created = await subscribe(subscribed);
    const ids = [await routed(subscribed), await routed(unsubscribed)];
    await app().get(RoutingBuilder).settled();
    // The subscriptions held in memory (5 s) are gone: nothing but the routing record may say.
    for (const user of [subscribed, unsubscribed]) app().get(TenantEvents).forget(user.userId);
    const { sql, counted } = await during(async () => {
      for (let i = 0; i < 3; i++)
        for (const id of ids) expect(await lookup(id)).toMatchObject({ status: 'success' });
    });
    expect(sql).toEqual([]);
    expect(counted).toEqual([subscribed.userId, subscribed.userId, subscribed.userId]);

    // Deleted: the owner's record says so at once; its lookups are no longer counted.
    await suite.ctx
      .http()
      .delete(`/event-subscription/delete/${created.body.data.subscription_id as string}`)
      .set(subscribed.auth)
      .expect(200);
    await app().get(RoutingBuilder).settled();
    app().get(TenantEvents).forget(subscribed.userId);
    const after = await during(async () => {
      expect(await lookup(ids[0])).toMatchObject({ status: 'success' });
    });
    expect(after).toEqual({ sql: [], counted: [] });
  });
});
