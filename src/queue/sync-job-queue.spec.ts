import { QUEUES } from '../contracts/queues';
import { backoffDelay, JobFailedError, JobWaitTimeoutError, type QueueJob } from './job-queue';
import { SyncJobQueue } from './sync-job-queue';

describe(SyncJobQueue.name, () => {
  let queue: SyncJobQueue<{ n: number }, number>;

  // Time is the test's own: every delay, backoff and wait below passes only when it is advanced.
  beforeEach(() => {
    jest.useFakeTimers();
    queue = new SyncJobQueue(QUEUES.TOOL_CALL);
  });
  afterEach(() => {
    queue.close();
    jest.useRealTimers();
  });

  it('returns the processor result to request()', async () => {
    queue.attach((job) => Promise.resolve(job.data.n * 2));
    await expect(queue.request({ n: 21 }, { waitMs: 1000 })).resolves.toBe(42);
  });

  it('retries with attemptsMade counting up until success', async () => {
    const seen: number[] = [];
    queue.attach((job) => {
      seen.push(job.attemptsMade);
      return job.attemptsMade < 2 ? Promise.reject(new Error('flaky')) : Promise.resolve(7);
    });
    const result = queue.request(
      { n: 1 },
      { waitMs: 1000, attempts: 5, backoff: { type: 'fixed', delay: 5 } },
    );
    await jest.advanceTimersByTimeAsync(10);
    await expect(result).resolves.toBe(7);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('tells its attempt listener about every attempt and counts active, delayed and failed jobs', async () => {
    const attempts: string[] = [];
    queue.onAttempt((job, outcome) => attempts.push(`${job.attemptsMade}:${outcome}`));
    let release: () => void = () => undefined;
    queue.attach((job) =>
      job.data.n === 0
        ? new Promise<number>((resolve) => (release = () => resolve(0)))
        : Promise.reject(new Error('always')),
    );
    const running = queue.request({ n: 0 }, { waitMs: 1000 });
    const failing = queue.request({ n: 1 }, { waitMs: 1000, attempts: 2, backoff: 50 });
    const failed = expect(failing).rejects.toBeInstanceOf(JobFailedError);
    await jest.advanceTimersByTimeAsync(20);
    expect(queue.counts()).toEqual({ waiting: 0, active: 1, delayed: 1, failed: 0 });
    release();
    await running;
    await jest.advanceTimersByTimeAsync(30);
    await failed;
    expect(queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    expect(attempts.sort()).toEqual(['0:completed', '0:failed', '1:failed']);
  });

  it('does not retry a discarded job', async () => {
    let calls = 0;
    queue.attach((job: QueueJob<{ n: number }>) => {
      calls += 1;
      job.discard();
      return Promise.reject(new Error('permanent'));
    });
    await expect(queue.request({ n: 1 }, { waitMs: 1000, attempts: 5 })).rejects.toBeInstanceOf(
      JobFailedError,
    );
    expect(calls).toBe(1);
  });

  it('gives up waiting after waitMs', async () => {
    queue.attach(() => new Promise<number>(() => undefined));
    const gaveUp = expect(queue.request({ n: 1 }, { waitMs: 30 })).rejects.toBeInstanceOf(
      JobWaitTimeoutError,
    );
    await jest.advanceTimersByTimeAsync(29);
    let settled = false;
    void gaveUp.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await gaveUp;
  });

  it('leaves the run timeout to the handler (its owner gate), as the worker on Redis does', async () => {
    let finish: () => void = () => undefined;
    queue.attach(() => new Promise<number>((resolve) => (finish = () => resolve(3))));
    const result = queue.request({ n: 1 }, { waitMs: 1000, timeout: 5 });
    await jest.advanceTimersByTimeAsync(30);
    finish();
    await expect(result).resolves.toBe(3);
  });

  it('fails clearly when no processor is attached', async () => {
    await expect(queue.request({ n: 1 }, { waitMs: 100 })).rejects.toThrow(/no processor/);
  });

  it('runs add() jobs in the background, after their delay', async () => {
    const ran: number[] = [];
    const done = new Promise<number>((resolve) =>
      queue.attach((job) => (ran.push(job.data.n), resolve(job.data.n), Promise.resolve(0))),
    );
    await queue.add({ n: 5 }, { delay: 40 });
    await jest.advanceTimersByTimeAsync(39);
    expect(ran).toEqual([]);
    expect(queue.counts().delayed).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe(5);
  });

  it('runs a repeat job every repeat.every ms until closed', async () => {
    let runs = 0;
    queue.attach(() => Promise.resolve(++runs));
    await queue.add({ n: 1 }, { jobId: 'every', repeat: { every: 10 } });
    await jest.advanceTimersByTimeAsync(55);
    queue.close();
    expect(runs).toBe(5);
    await jest.advanceTimersByTimeAsync(30);
    expect(runs).toBe(5);
  });

  it('runs a job id once, as Bull does while the job is kept', async () => {
    let runs = 0;
    queue.attach(() => Promise.resolve(++runs));
    await queue.add({ n: 1 }, { jobId: 'same' });
    await queue.add({ n: 1 }, { jobId: 'same' });
    await expect(queue.request({ n: 1 }, { jobId: 'same', waitMs: 1000 })).resolves.toBe(1);
    expect(runs).toBe(1);
  });
});

describe(backoffDelay.name, () => {
  it('follows Bull: fixed, exponential, number; ours is capped', () => {
    expect(backoffDelay({ type: 'fixed', delay: 100 }, 3)).toBe(100);
    expect(backoffDelay({ type: 'exponential', delay: 100 }, 1)).toBe(100);
    expect(backoffDelay({ type: 'exponential', delay: 100 }, 4)).toBe(800);
    expect(backoffDelay(250, 2)).toBe(250);
    expect(backoffDelay(undefined, 2)).toBe(0);
    expect(backoffDelay({ type: 'capped' }, 3)).toBe(4000);
    expect(backoffDelay({ type: 'capped' }, 30)).toBe(30_000);
  });
});
