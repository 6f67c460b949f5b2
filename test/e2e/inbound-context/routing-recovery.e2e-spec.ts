import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { RoutingBuilder } from '../../../src/lookup/routing/routing-builder';
import { RoutingStore } from '../../../src/lookup/routing/routing-store';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { ManagedProcess, isListening, waitUntil } from '../../faults/support/services';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { freePort } from '../../utils/free-port';
import { onCluster, redisConfigured } from '../../utils/test-redis';

/**
 * A configuration write made while Redis is lost cannot reach the routing table; when Redis is
 * back (with the table as it was), the process rebuilds the table, so lookups do not answer from
 * the routing of before the write. The app runs on a Redis server of this suite's own (kept on
 * disk across the restart), never the shared one.
 */
(redisConfigured && !onCluster ? describe : describe.skip)(
  'routing table after Redis comes back (e2e)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'routing-recovery-'));
    let port: number;
    let redis: ManagedProcess;
    let ctx: TestContext;
    let user: TestUser;

    const startRedis = async () => {
      redis.start();
      await waitUntil('the private Redis to listen', () => isListening(port), 10_000);
    };

    beforeAll(async () => {
      port = await freePort();
      redis = new ManagedProcess(
        'redis',
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'yes',
          '--dir',
          dir,
        ],
        { logFile: join(dir, 'redis.log') },
      );
      await startRedis();
      ctx = await createTestApp({
        env: {
          REDIS_URL: `redis://127.0.0.1:${port}`,
          REDIS_CLUSTER_NODES: undefined,
          QUEUE_PREFIX: `recovery-${randomUUID().slice(0, 8)}`,
          RATE_LIMIT_PER_MINUTE: '0',
        },
      });
      user = await ctx.newUser();
    });
    afterAll(async () => {
      await ctx?.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const lookup = (phone: string) =>
      ctx.app
        .get(InboundContextLookupService)
        .run({ room_name: `room-${randomUUID()}`, inbound_number: phone });

    it('a write made while Redis was lost is in the routing once Redis answers again', async () => {
      const assistants = assistantApi(ctx, user);
      const first = await assistants.create(assistantBody({ assistant_name: 'Before the outage' }));
      const second = await assistants.create(
        assistantBody({ assistant_name: 'Set in the outage' }),
      );
      const body = inboundBody(first.assistant_id);
      const mapping = await inboundApi(ctx, user).assign(body);
      const phone = body.inbound_config.phone_number;
      await ctx.app.get(RoutingBuilder).settled();
      expect(await lookup(phone)).toMatchObject({ assistant_name: 'Before the outage' });

      await redis.stop();
      await ctx
        .http()
        .patch(`/inbound/update/${mapping.inbound_id}`)
        .set(user.auth)
        .send({ assistant_id: second.assistant_id })
        .expect(200);
      // The write did not wait on the lost Redis (its rebuild fails at once, to be redone): a
      // write that waited would have run out of its request budget (503), not answered 200.

      await startRedis();
      // Redis holds the routing of before the outage; only the rebuild on reconnect replaces it.
      // A lookup reads the table once its connection is back (before, it reads the database, which
      // is current): so each probe first reads the table, then looks up.
      await waitUntil(
        'a lookup read from the table to answer with the assistant set during the outage',
        async () => {
          await ctx.app.get(RoutingStore).read('id', 'probe');
          const answer = await lookup(phone);
          return answer.assistant_name === 'Set in the outage';
        },
        15_000,
      );
    }, 60_000);
  },
);
