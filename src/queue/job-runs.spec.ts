import { MAX_STALLED_RUNS } from '../contracts/queues';
import type { QueueJob } from './job-queue';
import { isLastAllowedRun, stallsOf } from './job-runs';

/** A Bull job as far as its stall count is read: its queue's client, key and lock time. */
function bullJob(stalledCounter: string | null, timestamp: number) {
  const reads: string[] = [];
  const job = {
    id: 7,
    timestamp,
    queue: {
      settings: { lockDuration: 15_000 },
      toKey: (id: string) => `bull:tool-call:${id}`,
      client: {
        hget: (key: string, field: string) => {
          reads.push(`${key} ${field}`);
          return Promise.resolve(stalledCounter);
        },
      },
    },
  } as unknown as QueueJob<unknown>;
  return { job, reads };
}

describe(stallsOf.name, () => {
  const now = 1_800_000_000_000;

  it('is 0 for an in-process job, which never stalls', async () => {
    const job = { id: 1, timestamp: 0 } as QueueJob<unknown>;
    expect(await stallsOf(job, now)).toBe(0);
  });

  it('reads nothing for a job started within the lock time after it was added: its first run', async () => {
    const { job, reads } = bullJob('3', now - 1000);
    expect(await stallsOf(job, now)).toBe(0);
    expect(reads).toEqual([]);
  });

  it("reads Bull's stall counter of an older job", async () => {
    const { job, reads } = bullJob('2', now - 60_000);
    expect(await stallsOf(job, now)).toBe(2);
    expect(reads).toEqual(['bull:tool-call:7 stalledCounter']);
    expect(await stallsOf(bullJob(null, now - 60_000).job, now)).toBe(0);
  });

  it('calls the run after the last allowed stop the last one', async () => {
    const old = Date.now() - 60_000;
    expect(await isLastAllowedRun(bullJob(String(MAX_STALLED_RUNS - 1), old).job)).toBe(false);
    expect(await isLastAllowedRun(bullJob(String(MAX_STALLED_RUNS), old).job)).toBe(true);
  });
});
