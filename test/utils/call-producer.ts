import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import type { QueueName } from '../../src/contracts/queues';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import type { TestContext } from './create-test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The call stack as a test meets it. With `REDIS_URL`, a plain `bull` producer (no job options,
 * UUID job ids) on the test file's `QUEUE_PREFIX`, reading the result the way README shows
 * (`job.finished()`, backed by reading the job); embedded, the in-process queue of the app.
 * `run` resolves to the job's return value and rejects with the failure reason.
 */
export class CallProducer {
  private readonly queues = new Map<QueueName, Bull.Queue>();

  constructor(private readonly ctx: TestContext) {}

  async run<R>(name: QueueName, data: object): Promise<R> {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const queue = this.ctx.app.get<JobQueue<object, R>>(jobQueueToken(name));
      return queue.request(data, { waitMs: 20_000 });
    }
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Bull(name, redisUrl, { prefix: process.env.QUEUE_PREFIX });
      this.queues.set(name, queue);
    }
    const job = await queue.add(data, { jobId: randomUUID() });
    return answer<R>(job);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}

/** What a call-stack engineer writes: `job.finished()`, backed by reading the job; a failure rejects with its reason. */
export async function answer<T>(job: Bull.Job): Promise<T> {
  const finished = job.finished() as Promise<T>;
  finished.catch(() => undefined);
  for (let i = 0; i < 300; i++) {
    const outcome = await Promise.race([finished, sleep(100).then(() => undefined)]);
    if (outcome !== undefined) return outcome;
    const current = await job.queue.getJob(job.id);
    if (current?.finishedOn) {
      if (current.failedReason) throw new Error(current.failedReason);
      return current.returnvalue as T;
    }
  }
  throw new Error(`job ${String(job.id)} did not finish`);
}
