import type { JobOptions, Queue } from 'bull';
import { QUEUE_SETTINGS, type QueueName } from '../contracts/queues';

/**
 * The job options the service owns on each queue, whatever a producer added the job with: how
 * many times a job runs (`attempts`, with its `backoff`) and how long it may run (`timeout`). A
 * producer's short `timeout` would fail a job whose request is still on its way (the webhook
 * called, the result lost); its `attempts` would send a request again outside the service's
 * retry policy.
 */
export const SERVICE_OWNED_OPTIONS = ['attempts', 'backoff', 'timeout'] as const;

/** `opts` with the options the service owns on `queue` replaced by the queue's own. */
export function withServiceOptions(queue: QueueName, opts: JobOptions): JobOptions {
  const own = QUEUE_SETTINGS[queue].options as JobOptions;
  const result: JobOptions = { ...opts };
  for (const name of SERVICE_OWNED_OPTIONS) {
    if (own[name] === undefined) delete result[name];
    else (result as Record<string, unknown>)[name] = own[name];
  }
  return result;
}

interface BullWorkerInternals {
  processJob: (job: { opts: JobOptions }, notFetch?: boolean) => Promise<unknown>;
}

/**
 * Makes this process's Bull worker run every job of `queue` with the service's options: Bull reads
 * `job.opts.timeout` just before the handler runs and `job.opts.attempts` when it fails, both from
 * the job object this sees first. The queue's `timeout` is applied by the handler's gate from the
 * moment the job's turn comes, not by Bull. The stored job keeps what the producer sent.
 */
export function enforceServiceOptions(queue: Queue, name: QueueName): void {
  const target = queue as unknown as BullWorkerInternals;
  const processJob = target.processJob.bind(queue);
  target.processJob = (job, notFetch) => {
    if (job) {
      const { timeout: _bound, ...opts } = withServiceOptions(name, job.opts ?? {});
      // The handler bounds the run itself once the job's turn has come (OwnerGate): Bull's timer
      // would also count the wait of an owner's job behind its own earlier ones.
      job.opts = opts;
    }
    return processJob(job, notFetch);
  };
}
