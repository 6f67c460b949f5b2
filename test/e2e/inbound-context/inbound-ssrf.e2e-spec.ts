import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { AssistantEntity } from '../../../src/assistant/assistant.entity';
import { InboundContextStrategyEntity } from '../../../src/inbound-context/inbound-context-strategy.entity';
import { InboundMappingEntity } from '../../../src/inbound-context/inbound-mapping.entity';
import { appSuite } from '../../utils/create-test-app';
import { rebuildRouting } from '../../utils/rebuild-routing';
import { strategyApi } from '../../api/strategy-api';

/**
 * The SSRF guard as production runs it (WEBHOOK_ALLOW_PRIVATE_NETWORKS=false). Its own queue
 * prefix, so no permissive app of another test file can pick up these lookups.
 */
describe('Inbound context SSRF guard (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    server: true,
    app: {
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
        QUEUE_PREFIX: `vac-ssrf-${Date.now()}-${process.pid}`,
      },
    },
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://100.64.1.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://017700000001/',
  ])('refuses to save %s (400)', async (url) => {
    const res = await suite.ctx
      .http()
      .post('/inbound_context_strategy/create')
      .set(suite.user.auth)
      .send({ strategy_name: 'ssrf', strategy_type: 'webhook', strategy_config: { url } })
      .expect(400);
    expect(res.body.data.errors).toEqual([
      {
        field: 'strategy_config.url',
        // Numeric host forms already fail the URL shape rule; the rest fail the address guard.
        message: expect.stringMatching(
          /^(strategy_config\.url must not (target|resolve to) a private|url must be an http\(s\) URL$)/,
        ),
      },
    ]);
  });

  it('refuses a private URL on update too', async () => {
    const created = await strategyApi(suite.ctx, suite.user).create({
      strategy_name: 'public',
      strategy_type: 'webhook',
      strategy_config: { url: 'https://93.184.216.34/hook' },
    });
    const res = await suite.ctx
      .http()
      .patch(`/inbound_context_strategy/update/${created.strategy_id}`)
      .set(suite.user.auth)
      .send({ strategy_config: { url: 'http://169.254.169.254/' } })
      .expect(400);
    expect(res.body.data.errors[0].field).toBe('strategy_config.url');
  });

  /**
   * A strategy calling the customer server (a private address) at `path`, written straight to the
   * table: the routes refuse to store it, an address that turned private later is the case here.
   */
  const saveStrategy = (strategyId: string, name: string, path: string) =>
    suite.ctx.dataSource.getRepository(InboundContextStrategyEntity).save({
      strategy_id: strategyId,
      user_id: suite.user.userId,
      strategy_name: name,
      strategy_type: 'webhook',
      strategy_config: { url: suite.server.url(path), headers: {}, timeout_seconds: 2 },
      is_active: true,
    });

  it('refuses at request time a stored URL that targets a private address: nothing sent, error logged', async () => {
    // As if the URL had passed the save-time check (DNS changed since, or saved with the guard off).
    suite.server.respond('/internal', { body: { context: { secret: 'internal' } } });
    const assistantId = randomUUID();
    const strategyId = randomUUID();
    const inboundId = randomUUID();
    await suite.ctx.dataSource.getRepository(AssistantEntity).save({
      assistant_id: assistantId,
      user_id: suite.user.userId,
      assistant_name: 'Guarded',
      assistant_description: 'd',
      assistant_prompt: 'Hi {{context.secret}}',
      assistant_llm_mode: 'pipeline',
      assistant_start_instruction: null,
      assistant_interaction_config: {},
      assistant_end_call_enabled: false,
    });
    await saveStrategy(strategyId, 'internal', '/internal');
    await suite.ctx.dataSource.getRepository(InboundMappingEntity).save({
      inbound_id: inboundId,
      user_id: suite.user.userId,
      assistant_id: assistantId,
      inbound_context_strategy_id: strategyId,
      service: 'exotel',
      inbound_config: { phone_number: 'x' },
      phone_number_normalized: `9${Date.now()}`.slice(0, 14),
      is_active: false,
      active_phone_number: null,
    });
    await rebuildRouting(suite.ctx);
    const room = `room-${randomUUID()}`;
    const result = await suite.ctx.app
      .get(InboundContextLookupClient)
      .lookup({ room_name: room, inbound_id: inboundId }, { waitMs: 15_000 });
    expect(result).toMatchObject({
      status: 'error',
      strategy_id: strategyId,
      context: null,
      prompt: 'Hi ',
    });
    expect(result.error).toMatch(/^blocked: /);
    expect(suite.server.requestsTo('/internal')).toHaveLength(0);

    const logs = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: room })
      .set(suite.user.auth)
      .expect(200);
    expect(logs.body.data.logs).toHaveLength(1);
    expect(logs.body.data.logs[0]).toMatchObject({
      status: 'error',
      response_data: { error: 'blocked' },
    });
  });

  it('refuses a private target in a dry run as well', async () => {
    const strategyId = randomUUID();
    await saveStrategy(strategyId, 'internal dry', '/internal-dry');
    const res = await suite.ctx
      .http()
      .post(`/inbound_context_strategy/test/${strategyId}`)
      .set(suite.user.auth)
      .send({})
      .expect(200);
    expect(res.body.data.status).toBe('error');
    expect(res.body.data.error).toMatch(/^blocked: /);
    expect(suite.server.requestsTo('/internal-dry')).toHaveLength(0);
  });
});
