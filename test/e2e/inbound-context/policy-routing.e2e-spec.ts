import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ActivityLogService } from '../../../src/activity-log/activity-log.service';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { RoutingBuilder } from '../../../src/lookup/routing/routing-builder';
import { RoutingStore } from '../../../src/lookup/routing/routing-store';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { twoProcessesWithUser } from '../../utils/two-processes';

/** Statements a lookup may make: its own activity-log entry. */
const LOG_WRITE = /activity_log|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

async function statementsDuring(dataSource: DataSource, work: () => Promise<void>) {
  const seen: string[] = [];
  const spy = jest.spyOn(dataSource.logger, 'logQuery').mockImplementation((sql: string) => {
    if (!LOG_WRITE.test(sql)) seen.push(sql);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

/**
 * A number's policy travels in its routing-table entry (sealed), with the assistants its actions
 * name: a lookup with a policy reads no database statement but its own log entry, in the other
 * process too, and a change of the policy's assistant reaches the next lookup at once.
 */
describe('inbound policy in the routing table (e2e)', () => {
  const two = twoProcessesWithUser();
  const lookupOn = (which: 'a' | 'b', inboundId: string, caller: string) =>
    two[which].app
      .get(InboundContextLookupService)
      .run({ room_name: `room-${randomUUID()}`, inbound_id: inboundId, caller_number: caller });

  it('answers closed, denied and open lookups from the table, with no database statement', async () => {
    const api = assistantApi(two.a, two.user);
    const main = (await api.create(assistantBody({ assistant_prompt: 'Open desk' }))).assistant_id;
    const night = (await api.create(assistantBody({ assistant_prompt: 'Night desk' })))
      .assistant_id;
    const closed = await inboundApi(two.a, two.user).assign(
      inboundBody(main, {
        policy: {
          timezone: 'Europe/Berlin',
          hours: {},
          closed: { action: 'assistant', assistant_id: night },
          callers: { deny: ['+4930777*'] },
        },
      }),
    );
    const open = await inboundApi(two.a, two.user).assign(
      inboundBody(main, { policy: { callers: { allow: ['+4940*'] } } }),
    );
    await two.a.app.get(RoutingBuilder).settled();
    await two.a.app.get(ActivityLogService).onModuleDestroy();
    for (const which of ['a', 'b'] as const) {
      const statements = await statementsDuring(two[which].dataSource, async () => {
        const afterHours = await lookupOn(which, closed.inbound_id, '+4940123456');
        expect(afterHours).toMatchObject({ prompt: 'Night desk', policy: { outcome: 'closed' } });
        const denied = await lookupOn(which, closed.inbound_id, '+4930777123');
        expect(denied).toMatchObject({ prompt: null, policy: { outcome: 'denied' } });
        const allowed = await lookupOn(which, open.inbound_id, '+4940123456');
        expect(allowed).toMatchObject({ prompt: 'Open desk', policy: { outcome: 'open' } });
        await two[which].app.get(ActivityLogService).onModuleDestroy();
      });
      expect(statements).toEqual([]);
    }

    // The policy's assistant changed through one process: the other's next lookup renders it.
    await two.a
      .http()
      .patch(`/assistant/update/${night}`)
      .set(two.user.auth)
      .send({ assistant_prompt: 'Night desk, revised' })
      .expect(200);
    expect(await lookupOn('b', closed.inbound_id, '+4940123456')).toMatchObject({
      prompt: 'Night desk, revised',
    });

    // Caller numbers are not in the table in clear.
    const { entry, records } = await two.a.app.get(RoutingStore).read('id', closed.inbound_id);
    expect([entry, ...records.values()].join('\n')).not.toContain('4930777');
  });
});
