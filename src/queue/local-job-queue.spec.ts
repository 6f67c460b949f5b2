import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { JobFailedError, JobWaitTimeoutError, type QueueJob } from './job-queue';
import { backoffDelay, LocalJobQueue } from './local-job-queue';

describe(LocalJobQueue.name, () => {
  let queue: LocalJobQueue<{ n: number }, number>;

  beforeEach(() => {
    queue = new LocalJobQueue(QUEUES.TOOL_CALL);
  });
  afterEach(() => queue.close());

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
    await expect(
      queue.request({ n: 1 }, { waitMs: 1000, attempts: 5, backoff: { type: 'fixed', delay: 5 } }),
    ).resolves.toBe(7);
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
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.counts()).toEqual({ waiting: 0, active: 1, delayed: 1, failed: 0 });
    release();
    await running;
    await expect(failing).rejects.toBeInstanceOf(JobFailedError);
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
    await expect(queue.request({ n: 1 }, { waitMs: 30 })).rejects.toBeInstanceOf(
      JobWaitTimeoutError,
    );
  });

  it('fails a job that outlives its timeout', async () => {
    queue.attach(() => new Promise<number>(() => undefined));
    await expect(queue.request({ n: 1 }, { waitMs: 1000, timeout: 20 })).rejects.toThrow(
      /timed out/,
    );
  });

  it('fails clearly when no processor is attached', async () => {
    await expect(queue.request({ n: 1 }, { waitMs: 100 })).rejects.toThrow(/no processor/);
  });

  it('runs add() jobs in the background', async () => {
    const done = new Promise<number>((resolve) =>
      queue.attach((job) => (resolve(job.data.n), Promise.resolve(0))),
    );
    await queue.add({ n: 5 });
    await expect(done).resolves.toBe(5);
  });
});

describe(backoffDelay.name, () => {
  it('follows Bull: fixed, exponential, number', () => {
    expect(backoffDelay({ type: 'fixed', delay: 100 }, 3)).toBe(100);
    expect(backoffDelay({ type: 'exponential', delay: 100 }, 1)).toBe(100);
    expect(backoffDelay({ type: 'exponential', delay: 100 }, 4)).toBe(800);
    expect(backoffDelay(250, 2)).toBe(250);
    expect(backoffDelay(undefined, 2)).toBe(0);
  });
});

describe('LocalJobQueue job ids', () => {
  it('runs a job id once, as Bull does while the job is kept', async () => {
    const queue = new LocalJobQueue<{ n: number }, number>(QUEUES.END_CALL_WEBHOOK);
    let runs = 0;
    queue.attach(() => Promise.resolve(++runs));
    await queue.add({ n: 1 }, { jobId: 'same' });
    await queue.add({ n: 1 }, { jobId: 'same' });
    await expect(queue.request({ n: 1 }, { jobId: 'same', waitMs: 1000 })).resolves.toBe(1);
    expect(runs).toBe(1);
    queue.close();
  });
});

describe('LocalJobQueue concurrency', () => {
  it('runs at most `concurrency` jobs at once; the rest wait in order', async () => {
    const queue = new LocalJobQueue<{ n: number }, number>(QUEUES.TOOL_CALL, 2);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    queue.attach(
      (job) =>
        new Promise<number>((resolve) => {
          started.push(job.data.n);
          releases.push(() => resolve(job.data.n));
        }),
    );
    const results = [1, 2, 3, 4].map((n) => queue.request({ n }, { waitMs: 1000 }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([1, 2]);
    expect(queue.counts()).toMatchObject({ waiting: 2, active: 2 });
    releases[0]();
    await results[0];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([1, 2, 3]);
    releases[1]();
    releases[2]();
    await new Promise((resolve) => setTimeout(resolve, 10));
    releases[3]();
    await expect(Promise.all(results)).resolves.toEqual([1, 2, 3, 4]);
    expect(queue.counts()).toMatchObject({ waiting: 0, active: 0 });
    queue.close();
  });

  it('takes its concurrency from the queue table by default', async () => {
    const queue = new LocalJobQueue<{ n: number }, number>(QUEUES.END_CALL_WEBHOOK);
    let running = 0;
    let most = 0;
    queue.attach(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return 0;
    });
    const jobs = Array.from(
      { length: QUEUE_SETTINGS[QUEUES.END_CALL_WEBHOOK].concurrency + 10 },
      (_, n) => queue.request({ n }, { waitMs: 1000 }),
    );
    await Promise.all(jobs);
    expect(most).toBe(QUEUE_SETTINGS[QUEUES.END_CALL_WEBHOOK].concurrency);
    queue.close();
  });
});
