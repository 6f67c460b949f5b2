import type { JobContract } from '../contracts/job-contract';
import type { QueueJob } from './job-queue';

/** A job whose data does not match its queue's contract. */
export class MalformedJobError extends Error {
  constructor(queue: string, reason: string) {
    super(`malformed ${queue} job: ${reason}`);
    this.name = 'MalformedJobError';
  }
}

/**
 * The job's data as its contract reads it. Data that does not match fails the job at once and for
 * good: the same data fails the same way on every attempt, whatever `attempts` the producer set.
 */
export function jobData<D>(contract: JobContract<D, unknown>, job: QueueJob<unknown>): D {
  const parsed = contract.parse(job.data);
  if (parsed.ok) return parsed.data;
  job.discard();
  throw new MalformedJobError(contract.queue, parsed.error);
}
