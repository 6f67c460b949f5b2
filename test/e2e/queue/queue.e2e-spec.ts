import Bull from 'bull';
import { BullJobQueue } from '../../../src/queue/bull-job-queue';
import { JobFailedError, QueueUnavailableError } from '../../../src/queue/job-queue';
import type { QueueName } from '../../../src/contracts/queues';
import { redisConfigured, testQueue } from '../../utils/test-redis';

const describeRedis = redisConfigured ? describe : describe.skip;

/** The result channel the call stack depends on, against real Redis (one server or a cluster). */
describeRedis('BullJobQueue on Redis (e2e)', () => {
  const prefix = `vac-queue-test-${Date.now()}`;
  let queue: Bull.Queue<{ n: number; fail?: boolean }>;
  let jobs: BullJobQueue<{ n: number; fail?: boolean }, { doubled: number }>;

  beforeAll(async () => {
    queue = testQueue(`echo-${process.pid}`, prefix);
    void queue.process(50, (job) => {
      if (job.data.fail) return Promise.reject(new Error('asked to fail'));
      return Promise.resolve({ doubled: job.data.n * 2 });
    });
    await queue.isReady();
    jobs = new BullJobQueue(queue);
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('delivers every result of 500 concurrent fast jobs', async () => {
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, n) => jobs.request({ n }, { waitMs: 10_000 })),
    );
    expect(results.map((r) => r.doubled)).toEqual(Array.from({ length: 500 }, (_, n) => n * 2));
  });

  it('still delivers results when completion events never arrive (falls back to reading the job)', async () => {
    const deaf = testQueue<{ n: number }>(`echo-${process.pid}`, prefix);
    const on = deaf.on.bind(deaf);
    // Swallow global event subscriptions: the result must come from reading the job.
    deaf.on = ((event: string, listener: (...args: unknown[]) => void) =>
      event.startsWith('global:') ? deaf : on(event as 'error', listener)) as typeof deaf.on;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        new BullJobQueue<{ n: number }, { doubled: number }>(deaf).request({ n }, { waitMs: 5000 }),
      ),
    );
    expect(results.map((r) => r.doubled)).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
    await deaf.close();
  });

  it('reports a failed job as JobFailedError', async () => {
    await expect(jobs.request({ n: 1, fail: true }, { waitMs: 5000 })).rejects.toBeInstanceOf(
      JobFailedError,
    );
  });

  it('tells a producer the queue is unavailable within its wait instead of hanging when Redis does not answer', async () => {
    const dead = new Bull<{ n: number }>('unreachable', 'redis://127.0.0.1:1', { prefix });
    dead.on('error', () => undefined);
    const jobs = new BullJobQueue<{ n: number }, unknown>(dead, 300);
    // A hang would end in the test's timeout, and a wait that simply ran out in JobWaitTimeoutError.
    await expect(jobs.request({ n: 1 }, { waitMs: 500 })).rejects.toBeInstanceOf(
      QueueUnavailableError,
    );
    await expect(jobs.add({ n: 1 })).rejects.toBeInstanceOf(QueueUnavailableError);
    await dead.close(true).catch(() => undefined);
  });

  it('exposes the queue name', () => {
    expect(jobs.name).toBe(`echo-${process.pid}` as QueueName);
  });
});
