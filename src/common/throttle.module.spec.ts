import type { ThrottlerStorage } from '@nestjs/throttler';
import { FailOpenThrottlerStorage } from './throttle.module';

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

  it('lets the request through within 200 ms when the storage hangs', async () => {
    const inner: ThrottlerStorage = { increment: () => new Promise(() => undefined) };
    const started = Date.now();
    const result = await new FailOpenThrottlerStorage(inner).increment(
      'k',
      60_000,
      5,
      0,
      'default',
    );
    expect(result.isBlocked).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
