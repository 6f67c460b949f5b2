import type { Job } from 'bull';
import { MAX_STALLED_RUNS } from '../contracts/queues';
import type { QueueJob } from './job-queue';

/** What a job's run says when its worker died too often for it to be run again. */
export const EXHAUSTED_MESSAGE = `its worker stopped ${MAX_STALLED_RUNS} times while running it; it was not run again`;

type BullQueueOfJob = Pick<Job['queue'], 'client' | 'toKey'> & {
  settings?: { lockDuration?: number };
};

/**
 * How many times the job was taken back from a worker that stopped (Bull's stall count). Read
 * only when it can be more than 0: a run that starts within the lock time after the job was added
 * is its first. An in-process job never stalls.
 */
export async function stallsOf(job: QueueJob<unknown>, now = Date.now()): Promise<number> {
  const queue = (job as Partial<Job>).queue as BullQueueOfJob | undefined;
  if (!queue?.client || typeof queue.toKey !== 'function') return 0;
  const lockMs = queue.settings?.lockDuration ?? 0;
  if (now - job.timestamp < lockMs) return 0;
  const count = await queue.client
    .hget(queue.toKey(String(job.id)), 'stalledCounter')
    .catch(() => null);
  return Number(count ?? 0) || 0;
}

/**
 * True when this run is the last Bull allows the job (`maxStalledCount` reached): a stop during it
 * would fail the job with "job stalled more than allowable limit". Such a run sends nothing and
 * completes the job as an error, after recording what earlier runs sent.
 */
export async function isLastAllowedRun(job: QueueJob<unknown>): Promise<boolean> {
  return (await stallsOf(job)) >= MAX_STALLED_RUNS;
}
