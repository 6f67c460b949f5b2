import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import type { EventDeliveryRequestData } from '../../../src/event-subscription/event-delivery-entry';
import { assistantApi } from '../../api/assistant-api';
import { dataOf } from '../../api/envelope';
import { routeNumber } from '../../api/inbound-api';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite, type TestUser } from '../../utils/create-test-app';

type DeliveryEntry = LogEntryDto & { request_data: EventDeliveryRequestData };

/**
 * A subscriber that hangs (takes the connection and never answers) or answers 500: its delivery is
 * retried, and meanwhile another subscription's delivery of the same event and a lookup complete.
 */
describe('A subscriber that hangs or fails (e2e)', () => {
  const suite = appSuite({
    server: true,
    app: { env: { END_CALL_WEBHOOK_BACKOFF_MS: '20' } },
  });
  const http = () => suite.ctx.http();

  const subscribe = (user: TestUser, path: string) =>
    dataOf<{ subscription_id: string }>(
      'POST /event-subscription/create',
      http()
        .post('/event-subscription/create')
        .set(user.auth)
        .send({ url: suite.server.url(path), events: ['check.failed'] }),
    );
  const deliveriesTo = async (user: TestUser, subscriptionId: string) =>
    (
      await dataOf<{ logs: DeliveryEntry[] }>(
        'GET /logs',
        http().get('/logs').query({ log_type: 'event_delivery', limit: 100 }).set(user.auth),
      )
    ).logs.filter((e) => e.request_data.subscription_id === subscriptionId);
  const settled = async (user: TestUser, subscriptionId: string, count: number) => {
    for (;;) {
      const entries = await deliveriesTo(user, subscriptionId);
      if (entries.length >= count) return entries;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it.each([
    ['hangs', 'hang', 'timeout'],
    ['answers 500', '500', 'http_5xx'],
  ] as const)(
    'a subscriber that %s is retried and holds up no other delivery or job',
    async (_what, mode, errorClass) => {
      const user = await suite.ctx.newUser();
      const [stuckPath, finePath, contextPath] = [
        `/stuck-${mode}`,
        `/fine-${mode}`,
        `/context-${mode}`,
      ];
      let stuckCalls = 0;
      // The first attempt hangs past the delivery deadline (or fails); the next one is answered.
      suite.server.respond(stuckPath, () =>
        stuckCalls++ > 0
          ? { status: 204 }
          : mode === 'hang'
            ? { delayMs: 120_000 }
            : { status: 500 },
      );
      suite.server.respond(contextPath, { body: { context: { name: 'Asha' } } });
      const stuck = await subscribe(user, stuckPath);
      const fine = await subscribe(user, finePath);
      const assistant = await assistantApi(suite.ctx, user).create();
      const { phone } = await routeNumber(
        suite.ctx,
        user,
        assistant.assistant_id,
        strategyBody(suite.server.url(contextPath)),
      );

      // A check without test cases does not pass: one check.failed event for both subscriptions.
      await http()
        .post(`/assistant/check/${assistant.assistant_id}`)
        .set(user.auth)
        .send({ version: null })
        .expect(200);
      const [first] = await suite.server.waitForRequests(stuckPath, 1, 15_000);

      // While the stuck subscriber holds its attempt: the other delivery is made, a lookup answers.
      const [delivered] = await settled(user, fine.subscription_id, 1);
      expect(delivered).toMatchObject({ status: 'success' });
      const lookup = await suite.ctx.app
        .get(InboundContextLookupClient)
        .lookup({ room_name: `room-${randomUUID()}`, inbound_number: phone }, { waitMs: 15_000 });
      expect(lookup).toMatchObject({ status: 'success', context: { name: 'Asha' } });
      if (mode === 'hang') {
        // Its attempt has not ended yet: no entry, no second request.
        expect(await deliveriesTo(user, stuck.subscription_id)).toEqual([]);
        expect(suite.server.requestsTo(stuckPath)).toHaveLength(1);
      }

      // Then it is retried: the same delivery (webhook-id and body), answered this time.
      const [, retried] = await suite.server.waitForRequests(stuckPath, 2, 30_000);
      expect(retried.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(retried.rawBody).toBe(first.rawBody);
      const entries = await settled(user, stuck.subscription_id, 2);
      expect(
        entries
          .map((e) => [e.request_data.attempt, e.status, e.error_class ?? null] as const)
          .sort(),
      ).toEqual([
        [1, 'error', errorClass],
        [2, 'success', null],
      ]);
      expect(suite.server.requestsTo(finePath)).toHaveLength(1);
    },
  );
});
