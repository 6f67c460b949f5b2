import { randomUUID } from 'node:crypto';
import Bull from 'bull';
import type { QueueName } from '../../src/contracts/queues';
import { jobQueueToken, type JobQueue } from '../../src/queue/job-queue';
import type { TestContext } from './create-test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The call stack's side of the queues. With REDIS_URL: a plain `bull` producer (`new Bull(name,
 * REDIS_URL, {prefix})`, a UUID job id, no other options) reading the result as a call-stack
 * engineer would (`job.finished()`, backed by reading the job). Embedded: the in-process queue.
 * A failed job rejects with its reason.
 */
export class CallProducer {
  private readonly queues = new Map<QueueName, Bull.Queue>();

  constructor(private readonly ctx: TestContext) {}

  async run<T>(name: QueueName, data: object): Promise<T> {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const queue = this.ctx.app.get<JobQueue<object, T>>(jobQueueToken(name));
      return queue.request(data, { waitMs: 20_000 });
    }
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Bull(name, redisUrl, { prefix: process.env.QUEUE_PREFIX });
      this.queues.set(name, queue);
    }
    const job = await queue.add(data, { jobId: randomUUID() });
    const finished = job.finished() as Promise<T>;
    for (let i = 0; i < 200; i++) {
      const outcome = await Promise.race([finished, sleep(100).then(() => undefined)]);
      if (outcome !== undefined) return outcome;
      const current = await queue.getJob(job.id);
      if (current?.finishedOn) {
        if (current.failedReason) throw new Error(current.failedReason);
        return current.returnvalue as T;
      }
    }
    throw new Error(`${name} job ${String(job.id)} did not finish`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
