import { randomUUID } from 'node:crypto';
import {
  AttemptJournal,
  JOURNAL_TTL_MS,
  RedisAttemptJournal,
  SETTLED_TTL_MS,
} from '../../../src/activity-log/attempt-journal';
import type { ActivityLogInput } from '../../../src/activity-log/activity-log.service';
import { QUEUES } from '../../../src/contracts/queues';
import { createTestApp, type TestContext } from '../../utils/create-test-app';
import { redisConfigured, testRedisConnection } from '../../utils/test-redis';

/**
 * The journal on Redis keeps a job's hash for a day while an attempt is open (a dead worker's job
 * may come back late), and only briefly once none is: a busy lookup queue must not leave a day of
 * per-job counters behind.
 */
describe('attempt journal on Redis (e2e)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  (redisConfigured ? it : it.skip)(
    'keeps an open attempt for a day, and the counter only briefly once all are settled',
    async () => {
      const journal = ctx.app.get<AttemptJournal, RedisAttemptJournal>(AttemptJournal);
      expect(journal).toBeInstanceOf(RedisAttemptJournal);
      const job = { queue: QUEUES.TOOL_CALL, id: `ttl-${randomUUID()}`, timestamp: Date.now() };
      const entry = { log_type: 'tool_call', message: 'sending' } as unknown as ActivityLogInput;
      const redis = testRedisConnection();
      try {
        const first = await journal.begin(job, entry);
        const second = await journal.begin(job, entry);
        await journal.settle(job, first);
        // One attempt still open: the day's expiry stands.
        expect(await redis.pttl(journal.key(job))).toBeGreaterThan(SETTLED_TTL_MS);
        expect(await redis.pttl(journal.key(job))).toBeLessThanOrEqual(JOURNAL_TTL_MS);
        await journal.settle(job, second);
        const left = await redis.pttl(journal.key(job));
        expect(left).toBeGreaterThan(0);
        expect(left).toBeLessThanOrEqual(SETTLED_TTL_MS);
        // The counter outlives the settling: a redelivered run never numbers an attempt again.
        expect(await journal.begin(job, entry)).toBe(3);
        expect(await journal.pending(job)).toEqual([
          { attempt: 3, entry: expect.objectContaining({ message: 'sending' }) },
        ]);
      } finally {
        redis.disconnect();
      }
    },
  );
});
