import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { webhookToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';

/** Characters a header may not carry that Node would otherwise send as written (U+0085 as byte 0x85). */
const REFUSED = [
  ['NEL (U+0085)', '\u0085'],
  ['a C1 control (U+009B)', '\u009b'],
  ['LINE SEPARATOR (U+2028)', '\u2028'],
  ['PARAGRAPH SEPARATOR (U+2029)', '\u2029'],
] as const;

describe('Custom webhook headers refuse C1 controls and line separators (e2e)', () => {
  const suite = appSuite({ users: ['user'] });
  let toolId: string;
  let strategyId: string;

  beforeAll(async () => {
    ({ tool_id: toolId } = await toolApi(suite.ctx, suite.user).create(
      webhookToolBody({ url: 'https://example.com/tool', headers: { 'X-Note': 'ok' } }),
    ));
    ({ strategy_id: strategyId } = await strategyApi(suite.ctx, suite.user).create({
      strategy_name: 'Headers',
      strategy_type: 'webhook',
      strategy_config: { url: 'https://example.com/lookup', headers: { 'X-Note': 'ok' } },
    }));
  });

  /** Every route that accepts headers, with `headers` as the body it sends. */
  const routes = [
    {
      route: 'POST /tool/create',
      field: 'tool_execution_config.headers',
      send: (headers: object) =>
        suite.ctx
          .http()
          .post('/tool/create')
          .set(suite.user.auth)
          .send(webhookToolBody({ url: 'https://example.com/tool', headers })),
    },
    {
      route: 'PATCH /tool/update',
      field: 'tool_execution_config.headers',
      send: (headers: object) =>
        suite.ctx
          .http()
          .patch(`/tool/update/${toolId}`)
          .set(suite.user.auth)
          .send({ tool_execution_config: { headers } }),
    },
    {
      route: 'POST /inbound_context_strategy/create',
      field: 'strategy_config.headers',
      send: (headers: object) =>
        suite.ctx
          .http()
          .post('/inbound_context_strategy/create')
          .set(suite.user.auth)
          .send({
            strategy_name: 'n',
            strategy_type: 'webhook',
            strategy_config: { url: 'https://example.com/lookup', headers },
          }),
    },
    {
      route: 'PATCH /inbound_context_strategy/update',
      field: 'strategy_config.headers',
      send: (headers: object) =>
        suite.ctx
          .http()
          .patch(`/inbound_context_strategy/update/${strategyId}`)
          .set(suite.user.auth)
          .send({ strategy_config: { headers } }),
    },
  ];

  describe.each(routes)('$route', ({ field, send }) => {
    it.each(REFUSED)('answers 400 naming the header for %s in a value', async (_, char) => {
      const res = await send({ 'X-Note': `line one${char}X-Injected: 1` }).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors).toEqual([
        { field, message: expect.stringContaining('header "X-Note" has an invalid value') },
      ]);
    });

    it.each(REFUSED)('answers 400 naming the header for %s in a name', async (_, char) => {
      const res = await send({ [`X-Note${char}`]: 'v' }).expect(400);
      expect(res.body.data.errors).toEqual([
        { field, message: expect.stringContaining(`invalid header name "X-Note${char}"`) },
      ]);
    });
  });

  it('stores nothing that was refused: the tool and the strategy keep their header', async () => {
    const tool = await suite.ctx
      .http()
      .get(`/tool/details/${toolId}`)
      .set(suite.user.auth)
      .expect(200);
    expect(tool.body.data.tool_execution_config.headers).toEqual({ 'X-Note': 'ok' });
    const strategy = await suite.ctx
      .http()
      .get(`/inbound_context_strategy/details/${strategyId}`)
      .set(suite.user.auth)
      .expect(200);
    expect(strategy.body.data.strategy_config.headers).toEqual({ 'X-Note': 'ok' });
  });
});
