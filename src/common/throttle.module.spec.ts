import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisConnection } from './redis/redis-connection';
import { FailOpenThrottlerStorage, RedisCounterThrottlerStorage } from './throttle.module';

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

describe(RedisCounterThrottlerStorage.name, () => {
  /** Counts and expiries as Redis keeps them (time stands still), and the commands it was sent. */
  function fakeRedis(failWith?: Error) {
    const sent: string[] = [];
    const counts = new Map<string, number>();
    const expiries = new Map<string, number>();
    const redis = {
      incr: (key: string) => {
        sent.push('incr');
        if (failWith) return Promise.reject(failWith);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return Promise.resolve(counts.get(key));
      },
      pexpire: (key: string, ms: number) => (sent.push('pexpire'), expiries.set(key, ms), 1),
      pttl: (key: string) => (sent.push('pttl'), Promise.resolve(expiries.get(key) ?? -1)),
    } as unknown as RedisConnection;
    return { redis, sent, counts, expiries };
  }

  it("counts with one INCR per request; the window's first request sets its expiry", async () => {
    const { redis, sent, counts, expiries } = fakeRedis();
    const storage = new RedisCounterThrottlerStorage(redis, () => 1_000_000);
    await expect(storage.increment('key:1', 60_000, 2, 60_000, 'api')).resolves.toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    await storage.increment('key:1', 60_000, 2, 60_000, 'api');
    expect(sent).toEqual(['incr', 'pexpire', 'incr']);
    expect(counts.get('{key:1:api}:hits')).toBe(2);
    expect(expiries.get('{key:1:api}:hits')).toBe(60_000);
  });

  it('refuses past the limit until the window ends, which another process started', async () => {
    const { redis, sent, counts, expiries } = fakeRedis();
    counts.set('{key:1:api}:hits', 2);
    expiries.set('{key:1:api}:hits', 1_200);
    const storage = new RedisCounterThrottlerStorage(redis, () => 1_000_000);
    const refused = { totalHits: 3, timeToExpire: 2, isBlocked: true, timeToBlockExpire: 2 };
    await expect(storage.increment('key:1', 60_000, 2, 60_000, 'api')).resolves.toEqual(refused);
    await expect(storage.increment('key:1', 60_000, 2, 60_000, 'api')).resolves.toMatchObject({
      totalHits: 4,
      timeToExpire: 2,
    });
    // Asked once, then known.
    expect(sent).toEqual(['incr', 'pttl', 'incr']);
  });

  it('gives a count found without an expiry one', async () => {
    const { redis, sent, counts, expiries } = fakeRedis();
    counts.set('{key:1:api}:hits', 5);
    const storage = new RedisCounterThrottlerStorage(redis, () => 1_000_000);
    await storage.increment('key:1', 60_000, 10, 60_000, 'api');
    expect(sent).toEqual(['incr', 'pttl', 'pexpire']);
    expect(expiries.get('{key:1:api}:hits')).toBe(60_000);
  });

  it('asks again once the window it knew has ended', async () => {
    const { redis, sent, counts, expiries } = fakeRedis();
    let now = 1_000_000;
    const storage = new RedisCounterThrottlerStorage(redis, () => now);
    await storage.increment('key:1', 60_000, 10, 60_000, 'api');
    // Another process started the next window.
    now += 60_000;
    counts.set('{key:1:api}:hits', 3);
    expiries.set('{key:1:api}:hits', 50_000);
    await expect(storage.increment('key:1', 60_000, 10, 60_000, 'api')).resolves.toMatchObject({
      totalHits: 4,
      timeToExpire: 50,
    });
    expect(sent).toEqual(['incr', 'pexpire', 'incr', 'pttl']);
  });

  it('fails when Redis fails (the fail-open wrapper lets the request through)', async () => {
    const storage = new RedisCounterThrottlerStorage(fakeRedis(new Error('WRONGTYPE')).redis);
    await expect(storage.increment('k', 60_000, 2, 60_000, 'api')).rejects.toThrow('WRONGTYPE');
    const open = await new FailOpenThrottlerStorage(storage).increment('k', 60_000, 2, 0, 'api');
    expect(open.isBlocked).toBe(false);
  });
});
