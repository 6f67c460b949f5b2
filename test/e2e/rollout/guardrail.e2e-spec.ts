import { randomUUID } from 'node:crypto';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { strategyApi } from '../../api/strategy-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

/**
 * A split with a guardrail, driven through a plain producer: when the variant's calls fail above
 * the rate, the split ends on the control's version once, the audit says who did it, and the
 * number's callers get the control from then on.
 */
describe('Split guardrail (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true, producer: true });
  const http = () => suite.ctx.http();
  const path = `/failing-${randomUUID().slice(0, 8)}`;

  const lookup = (inboundId: string, caller: string) =>
    suite.producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
      room_name: `room-${randomUUID()}`,
      inbound_id: inboundId,
      caller_number: caller,
    });
  const details = async (inboundId: string) =>
    (await http().get(`/inbound/details/${inboundId}`).set(suite.user.auth).expect(200)).body
      .data as Record<string, unknown>;
  const publish = (assistantId: string) => assistantApi(suite.ctx, suite.user).publish(assistantId);

  it('ends a split whose variant fails, once, audited as the guardrail, and routes callers to the control', async () => {
    suite.server.respond(path, { status: 500, body: { error: 'down' } });
    const assistantId = (await assistantApi(suite.ctx, suite.user).create(assistantBody()))
      .assistant_id;
    const control = await publish(assistantId);
    const variant = await publish(assistantId);
    const strategy = await strategyApi(suite.ctx, suite.user).create(
      strategyBody(suite.server.url(path), { timeout_seconds: 2 }),
    );
    const mapping = await inboundApi(suite.ctx, suite.user).assign(
      inboundBody(assistantId, {
        inbound_context_strategy_id: strategy.strategy_id,
        assistant_variants: [
          { assistant_version: control, weight: 50 },
          { assistant_version: variant, weight: 50 },
        ],
        guardrail: { max_error_rate: 0.5, min_lookups: 3, window_seconds: 600 },
      }),
    );
    expect(mapping.guardrail).toEqual({ max_error_rate: 0.5, min_lookups: 3, window_seconds: 600 });

    // Callers in waves of 6 at once (several lookups judging together) until the split ends.
    let onVariant = 0;
    let ended: Record<string, unknown> | null = null;
    for (let wave = 0; wave < 10 && !ended; wave++) {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          lookup(mapping.inbound_id, `+9199${wave}0${i}${Date.now() % 100000}`),
        ),
      );
      onVariant += results.filter((r) => r.variant === 1).length;
      for (let poll = 0; poll < 20 && onVariant >= 3 && !ended; poll++) {
        const now = await details(mapping.inbound_id);
        if (now.assistant_variants === null) ended = now;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(ended).toMatchObject({
      assistant_version: control,
      assistant_variants: null,
      guardrail: null,
      guardrail_state: { variant: 1, error_rate: 1 },
    });
    expect((ended?.guardrail_state as { lookups: number }).lookups).toBeGreaterThanOrEqual(3);

    const audit = await http()
      .get('/audit')
      .query({ resource_type: 'inbound', resource_id: mapping.inbound_id, action: 'revert' })
      .set(suite.user.auth)
      .expect(200);
    expect(audit.body.data.items).toHaveLength(1);
    expect(audit.body.data.items[0].actor).toEqual({ system: 'guardrail' });

    // The routing picks the change up: callers get the control's version, no split.
    let after: InboundContextLookupResult | null = null;
    for (let i = 0; i < 20; i++) {
      after = await lookup(mapping.inbound_id, `+9188${i}${Date.now() % 100000}`);
      if (after.variant === null) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(after).toMatchObject({ variant: null, assistant_version: control });
    const again = await http()
      .get('/audit')
      .query({ resource_type: 'inbound', resource_id: mapping.inbound_id, action: 'revert' })
      .set(suite.user.auth)
      .expect(200);
    expect(again.body.data.items).toHaveLength(1);
  });
});
