import type { JobOptions, Queue } from 'bull';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { enforceServiceOptions, withServiceOptions } from './service-job-options';

describe(withServiceOptions.name, () => {
  it("replaces attempts, backoff and timeout with the queue's own and keeps the rest", () => {
    const own = QUEUE_SETTINGS[QUEUES.TOOL_CALL].options;
    expect(
      withServiceOptions(QUEUES.TOOL_CALL, {
        timeout: 50,
        attempts: 5,
        backoff: 10,
        priority: 2,
        jobId: 'j',
      }),
    ).toEqual({ timeout: own.timeout, attempts: 1, priority: 2, jobId: 'j' });
  });

  it('makes the Bull worker run the job with them', async () => {
    const seen: JobOptions[] = [];
    const queue = {
      processJob: (job: { opts: JobOptions }) => {
        seen.push(job.opts);
        return Promise.resolve();
      },
    };
    enforceServiceOptions(queue as unknown as Queue, QUEUES.END_CALL_WEBHOOK);
    await (queue.processJob as (job: unknown) => Promise<void>)({
      opts: { timeout: 1, attempts: 9 },
    });
    // The timeout is the gate's to apply (OwnerGate), from the job's turn on.
    expect(seen).toEqual([{ attempts: 1 }]);
  });
});
