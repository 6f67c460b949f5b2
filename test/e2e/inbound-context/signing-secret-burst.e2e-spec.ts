import { assistantApi } from '../../api/assistant-api';
import { strategyApi } from '../../api/strategy-api';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

/**
 * A new tenant (no signing secret yet) assigning many numbers with a strategy at once, as an
 * import script would: every request answers, and the process keeps serving everyone after.
 * Each write's after-commit work reads on the writer's own connection; were any of it to write
 * through another connection, 30 writers would hold the whole pool waiting for a 31st.
 */
describe('a burst of strategy-bearing writes from a new tenant (e2e)', () => {
  const suite = appSuite({ users: ['fresh', 'other'], server: true });

  it('assigns 30 numbers at once, then /health and another tenant still answer', async () => {
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.fresh).create();
    const strategy = await strategyApi(suite.ctx, suite.fresh).create(
      strategyBody(suite.server.url('/crm')),
    );

    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        suite.ctx
          .http()
          .post('/inbound/assign')
          .set(suite.fresh.auth)
          .send(inboundBody(assistantId, { inbound_context_strategy_id: strategy.strategy_id })),
      ),
    );

    expect(responses.map((res) => res.status)).toEqual(responses.map(() => 200));
    await suite.ctx.http().get('/health').expect(200);
    await suite.ctx.http().get('/assistant/list').set(suite.other.auth).expect(200);
  });
});
