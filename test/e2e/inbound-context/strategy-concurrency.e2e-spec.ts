import { appSuite } from '../../utils/create-test-app';
import { strategyApi } from '../../api/strategy-api';

/** PATCH /inbound_context_strategy/update/:id is a read-merge-write: concurrent ones must not lose each other's keys. */
describe('Inbound context strategy: concurrent updates (e2e)', () => {
  const suite = appSuite({ users: ['alice'], server: true });

  it('keeps every header of concurrent PATCHes of different headers', async () => {
    const { strategy_id: id } = await strategyApi(suite.ctx, suite.alice).create({
      strategy_name: 'CRM lookup',
      strategy_type: 'webhook',
      strategy_config: { url: suite.server.url('/crm'), headers: { 'X-Base': 'base' } },
    });
    const names = Array.from({ length: 12 }, (_, i) => `X-Header-${i}`);

    const responses = await Promise.all(
      names.map((name) =>
        suite.ctx
          .http()
          .patch(`/inbound_context_strategy/update/${id}`)
          .set(suite.alice.auth)
          .send({ strategy_config: { headers: { [name]: `value-${name}` } } }),
      ),
    );
    expect(responses.map((res) => res.status)).toEqual(names.map(() => 200));

    const details = await suite.ctx
      .http()
      .get(`/inbound_context_strategy/details/${id}`)
      .set(suite.alice.auth)
      .expect(200);
    expect(Object.keys(details.body.data.strategy_config.headers).sort()).toEqual(
      ['X-Base', ...names].sort(),
    );
  });
});
