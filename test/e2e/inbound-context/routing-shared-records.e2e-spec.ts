import { randomUUID } from 'node:crypto';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { RoutingBuilder } from '../../../src/lookup/routing/routing-builder';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';
import { testRedis, testRedisConnection } from '../../utils/test-redis';

/**
 * The routing table keeps a small entry per number and what numbers share (assistants, versions,
 * strategies with their secrets' values, the owner's signing secrets) once: a lookup after every
 * kind of write routes by it, and a number costs its entry, not a copy of what it shares.
 */
describe('lookup routing: entries and shared records (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true });
  const http = () => suite.ctx.http();
  const lookup = (data: { inbound_id?: string; inbound_number?: string }) =>
    suite.ctx.app
      .get(InboundContextLookupService)
      .run({ room_name: `room-${randomUUID()}`, ...data });
  const send = (method: 'patch' | 'post' | 'delete', path: string, body: object = {}) =>
    http()[method](path).set(suite.user.auth).send(body).expect(200);

  it('a lookup after every kind of write routes by it', async () => {
    await secretApi(suite.ctx, suite.user).create('SHARED_TOKEN', 'token-1');
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({ assistant_name: 'First', assistant_prompt: 'Hi {{context.name}}' }),
    );
    for (const path of ['/one', '/two'])
      suite.server.respond(path, { body: { context: { name: 'Asha' } } });
    const strategy = await strategyApi(suite.ctx, suite.user).create(
      strategyBody(suite.server.url('/one'), {
        headers: { Authorization: 'Bearer {{secret.SHARED_TOKEN}}' },
      }),
    );
    const body = inboundBody(assistantId, { inbound_context_strategy_id: strategy.strategy_id });
    const { inbound_id: id } = await inboundApi(suite.ctx, suite.user).assign(body);
    const first = body.inbound_config.phone_number;
    expect(await lookup({ inbound_number: first })).toMatchObject({ assistant_name: 'First' });

    // The mapping moves to another number, then stops routing by number.
    const second = inboundBody(assistantId).inbound_config.phone_number;
    await send('patch', `/inbound/update/${id}`, { inbound_config: { phone_number: second } });
    expect((await lookup({ inbound_number: first })).error).toMatch(/^mapping_not_found/);
    expect(await lookup({ inbound_number: second })).toMatchObject({ status: 'success' });
    await send('patch', `/inbound/update/${id}`, { is_active: false });
    expect((await lookup({ inbound_number: second })).error).toMatch(/^mapping_not_found/);
    await send('patch', `/inbound/update/${id}`, { is_active: true });

    // The assistant, a published version pinned, the working copy changed after.
    await send('patch', `/assistant/update/${assistantId}`, { assistant_name: 'Renamed' });
    expect(await lookup({ inbound_id: id })).toMatchObject({ assistant_name: 'Renamed' });
    await send('post', `/assistant/publish/${assistantId}`);
    await send('patch', `/inbound/update/${id}`, { assistant_version: 1 });
    await send('patch', `/assistant/update/${assistantId}`, { assistant_name: 'Draft' });
    expect(await lookup({ inbound_id: id })).toMatchObject({ assistant_name: 'Renamed' });

    // The strategy, the secret it references, the owner's signing secret.
    await send('patch', `/inbound_context_strategy/update/${strategy.strategy_id}`, {
      strategy_config: { url: suite.server.url('/two') },
    });
    await secretApi(suite.ctx, suite.user).rotate('SHARED_TOKEN', 'token-2');
    await lookup({ inbound_id: id });
    const sent = suite.server.requestsTo('/two');
    expect(sent).toHaveLength(1);
    expect(sent[0].headers.authorization).toBe('Bearer token-2');
    expect(String(sent[0].headers['webhook-signature']).split(' ')).toHaveLength(1);
    await send('post', '/auth/webhook-secret/rotate');
    await lookup({ inbound_id: id });
    // During the grace period both the new and the previous secret sign.
    expect(String(suite.server.requestsTo('/two')[1].headers['webhook-signature']).split(' ')).toHaveLength(2);

    // Deleting the strategy detaches it; deleting the assistant too; then the mapping goes.
    await send('delete', `/inbound_context_strategy/delete/${strategy.strategy_id}`);
    expect(await lookup({ inbound_id: id })).toMatchObject({ status: 'skipped' });
    expect(suite.server.requestsTo('/two')).toHaveLength(2);
    await send('delete', `/assistant/delete/${assistantId}`);
    expect((await lookup({ inbound_id: id })).error).toMatch(/^assistant_not_found/);
    await send('delete', `/inbound/delete/${id}`);
    expect((await lookup({ inbound_id: id })).error).toMatch(/^mapping_not_found/);
    await suite.ctx.app.get(RoutingBuilder).rebuild();
    expect((await lookup({ inbound_id: id })).error).toMatch(/^mapping_not_found/);
  });

  (testRedis ? it : it.skip)(
    'a number costs its entry in Redis (at most 512 bytes), not a copy of what it shares',
    async () => {
      const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.user).create(
        assistantBody({ assistant_prompt: 'x'.repeat(4000) }),
      );
      const strategy = await strategyApi(suite.ctx, suite.user).create(
        strategyBody(suite.server.url('/bytes'), { headers: { 'X-Big': 'y'.repeat(2000) } }),
      );
      const assign = () =>
        inboundApi(suite.ctx, suite.user).assign(
          inboundBody(assistantId, { inbound_context_strategy_id: strategy.strategy_id }),
        );
      const ids = [];
      for (let i = 0; i < 100; i += 10)
        ids.push(...(await Promise.all(Array.from({ length: 10 }, assign))).map((m) => m.inbound_id));
      // The numbers' own fields, copied to a key of their own: other suites write the shared table.
      const redis = testRedisConnection();
      const table = `${process.env.QUEUE_PREFIX}:routing`;
      const copy = `${table}:measure-${randomUUID()}`;
      try {
        for (const id of ids) {
          const entry = await redis.hget(table, `e:${id}`);
          const { p } = JSON.parse(entry!) as { p: string };
          expect(await redis.hget(table, `n:${p}`)).toBe(id);
          await redis.hset(copy, `e:${id}`, entry!, `n:${p}`, id);
        }
        const perNumber = Number(await redis.call('MEMORY', 'USAGE', copy, 'SAMPLES', '0')) / ids.length;
        expect(perNumber).toBeGreaterThan(0);
        expect(perNumber).toBeLessThanOrEqual(512);
        // What the numbers share is there once, and nowhere in their entries.
        expect(await redis.hexists(table, `a:${assistantId}`)).toBe(1);
        expect(await redis.hexists(table, `s:${strategy.strategy_id}`)).toBe(1);
      } finally {
        await redis.del(copy);
        redis.disconnect();
      }
    },
  );
});
