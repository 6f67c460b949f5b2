import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { EvalShaThrottlerStorage, FailOpenThrottlerStorage } from './throttle.module';

const record = { totalHits: 3, timeToExpire: 10, isBlocked: false, timeToBlockExpire: 0 };

describe(FailOpenThrottlerStorage.name, () => {
  it('passes the inner storage record through', async () => {
    const inner: ThrottlerStorage = { increment: () => Promise.resolve(record) };
    await expect(
      new FailOpenThrottlerStorage(inner).increment('k', 60_000, 5, 0, 'default'),
    ).resolves.toEqual(record);
  });

  it('lets the request through when the storage errors', async () => {
    const inner: ThrottlerStorage = {
      increment: () => Promise.reject(new Error('Connection is closed')),
    };
    const result = await new FailOpenThrottlerStorage(inner).increment(
      'k',
      60_000,
      5,
      0,
      'default',
    );
    expect(result.isBlocked).toBe(false);
    expect(result.totalHits).toBe(0);
  });

  it('lets the request through after 200 ms when the storage hangs', async () => {
    jest.useFakeTimers();
    try {
      const inner: ThrottlerStorage = { increment: () => new Promise(() => undefined) };
      let settled = false;
      const result = new FailOpenThrottlerStorage(inner)
        .increment('k', 60_000, 5, 0, 'default')
        .finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(199);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect((await result).isBlocked).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe(EvalShaThrottlerStorage.name, () => {
  it("sends the library's script by its hash and reads its answer", async () => {
    const defined: Record<string, { numberOfKeys: number; lua: string }> = {};
    const calls: unknown[][] = [];
    const redis = Object.create(Redis.prototype) as Redis & Record<string, unknown>;
    redis.call = () => Promise.reject(new Error('EVAL with the script text'));
    redis.defineCommand = (name: string, definition: { numberOfKeys: number; lua: string }) => {
      defined[name] = definition;
      redis[name] = (...args: unknown[]) => {
        calls.push(args);
        return Promise.resolve([3, 59_001, 1, 30_000]);
      };
    };
    const storage = new EvalShaThrottlerStorage(redis);
    await expect(storage.increment('key:1', 60_000, 2, 30_000, 'api')).resolves.toEqual({
      totalHits: 3,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 30,
    });
    expect(Object.values(defined)).toEqual([{ numberOfKeys: 2, lua: storage.scriptSrc }]);
    expect(calls).toEqual([['{key:1:api}:hits', '{key:1:api}:blocked', 'api', 60_000, 2, 30_000]]);
  });
});
