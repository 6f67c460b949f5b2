/**
 * Redis pub/sub is not scoped to a database number: two deployments on one Redis server, on
 * different databases but under the same queue prefix, hear each other's job completion events.
 * What that does to a plain producer, what the documented producer does about it, and the warning
 * the service logs at start when it sees another database holding its queues.
 */
import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import Redis from 'ioredis';
import { Logger } from 'nestjs-pino';
import { QUEUES } from '../../../src/contracts/queues';
import { waitUntil } from '../../faults/support/services';
import { createTestApp } from '../../utils/create-test-app';
import { captureStdout } from '../../utils/log-capture';

const redisUrl = process.env.REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;
const WARNING = /Redis database (\d+) of this server also holds Bull queues/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `REDIS_URL` on database `db`. */
function onDatabase(db: number): string {
  const url = new URL(redisUrl!);
  url.pathname = `/${db}`;
  return url.toString();
}

describeRedis('Queues of two deployments on one Redis server (e2e)', () => {
  const ownDb = redisUrl ? (new Redis(redisUrl, { lazyConnect: true }).options.db ?? 0) : 0;
  // Two databases this run does not otherwise use.
  const [dbA, dbB] = [11, 12, 13].filter((db) => db !== ownDb);

  it("a plain producer's job.finished() is answered by the other database's job of the same id; a UUID jobId is not", async () => {
    const prefix = `vac-pubsub-${randomUUID()}`;
    const mine = new Bull(QUEUES.TOOL_CALL, onDatabase(dbA), { prefix });
    const theirs = new Bull(QUEUES.TOOL_CALL, onDatabase(dbB), { prefix });
    try {
      await Promise.all([mine.isReady(), theirs.isReady()]);
      // process() settles only when the queue closes.
      theirs
        .process((job) => Promise.resolve({ answered_by: 'B', data: job.data as unknown }))
        .catch(() => undefined);

      // Added with no options: this deployment's job 1 ...
      const plain = await mine.add({ deployment: 'A' });
      const plainAnswer = plain.finished();
      await sleep(300); // finished() has subscribed to the completion events
      // ... and the other deployment's job 1, completed there.
      const other = await theirs.add({ deployment: 'B' });
      expect(other.id).toBe(plain.id);
      await expect(plainAnswer).resolves.toEqual({
        answered_by: 'B',
        data: { deployment: 'B' },
      });
      // Its own job has not even started: no worker consumes database A yet.
      expect(await (await mine.getJob(plain.id))?.getState()).toBe('waiting');

      // The documented producer: a jobId that cannot collide.
      const documented = await mine.add({ deployment: 'A' }, { jobId: randomUUID() });
      let settled = false;
      const documentedAnswer = documented.finished().finally(() => (settled = true));
      await sleep(300);
      const next = await theirs.add({ deployment: 'B' });
      await next.finished();
      await sleep(300);
      expect(settled).toBe(false);
      mine
        .process((job) => Promise.resolve({ answered_by: 'A', data: job.data as unknown }))
        .catch(() => undefined);
      await expect(documentedAnswer).resolves.toEqual({
        answered_by: 'A',
        data: { deployment: 'A' },
      });
    } finally {
      await Promise.all(
        [mine, theirs].map((q) => q.obliterate({ force: true }).catch(() => undefined)),
      );
      await Promise.all([mine.close(), theirs.close()]);
    }
  });

  it('warns once at start, naming the databases and QUEUE_PREFIX, when another database holds queues under its prefix', async () => {
    const prefix = process.env.QUEUE_PREFIX!;
    const other = new Redis(onDatabase(dbB));
    const marker = `${prefix}:${QUEUES.TOOL_CALL}:id`;
    const log = captureStdout();
    try {
      await other.set(marker, '7');
      const ctx = await createTestApp({ env: { LOG_LEVEL: 'warn' } });
      ctx.app.useLogger(ctx.app.get(Logger));
      try {
        await waitUntil('the start-up warning', () => WARNING.test(log.text()), 12_000, 20);
        const lines = log
          .text()
          .split('\n')
          .filter((line) => WARNING.test(line));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`Redis database ${dbB} of this server`);
        expect(lines[0]).toContain(`under the prefix \\"${prefix}\\"`);
        expect(lines[0]).toContain(`this process uses database ${ownDb}`);
        expect(lines[0]).toContain('QUEUE_PREFIX');
      } finally {
        await ctx.close();
      }

      // Under a prefix of its own, a deployment is not warned about.
      const apart = await createTestApp({
        env: { LOG_LEVEL: 'warn', QUEUE_PREFIX: `${prefix}-apart` },
      });
      apart.app.useLogger(apart.app.get(Logger));
      try {
        await sleep(1000);
        expect(log.text()).not.toContain(`${prefix}-apart`);
      } finally {
        await apart.close();
      }
    } finally {
      log.restore();
      await other.del(marker);
      other.disconnect();
    }
  });
});
