import { Logger } from '@nestjs/common';
import {
  LAST_USED_GRANULARITY_MS,
  SECRET_USE_STAMP_INTERVAL_MS,
  SecretUseStamps,
} from './secret-use-stamps';
import type { NamedSecret, SecretRepository } from './secret.repository';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function setup(touchNamed = jest.fn<Promise<void>, [NamedSecret[], Date, Date]>()) {
  touchNamed.mockResolvedValue(undefined);
  const stamps = new SecretUseStamps({ touchNamed } as unknown as SecretRepository);
  /** The secrets of each write, sorted, as `user/NAME`. */
  const written = () =>
    touchNamed.mock.calls.map(([secrets]) =>
      secrets.map(({ userId, name }) => `${userId}/${name}`).sort(),
    );
  return { stamps, touchNamed, written };
}

describe(SecretUseStamps.name, () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('writes every secret used since the last write in one statement, each once', async () => {
    const { stamps, touchNamed, written } = setup();
    stamps.used('u1', ['A', 'B']);
    stamps.used('u1', ['A']);
    stamps.used('u2', ['A']);
    stamps.used('u2', []);
    expect(touchNamed).not.toHaveBeenCalled();
    await stamps.flush();
    expect(written()).toEqual([['u1/A', 'u1/B', 'u2/A']]);
    const [, now, staleBefore] = touchNamed.mock.calls[0];
    expect(now.getTime()).toBe(T0);
    expect(staleBefore.getTime()).toBe(T0 - LAST_USED_GRANULARITY_MS);
    await stamps.flush();
    expect(touchNamed).toHaveBeenCalledTimes(1);
  });

  it('stamps a secret used within the granularity once, and again once it has passed', async () => {
    const { stamps, written } = setup();
    stamps.used('u1', ['A']);
    await stamps.flush();
    jest.setSystemTime(T0 + LAST_USED_GRANULARITY_MS - 1);
    stamps.used('u1', ['A']);
    stamps.used('u1', ['B']);
    await stamps.flush();
    expect(written()).toEqual([['u1/A'], ['u1/B']]);
    jest.setSystemTime(T0 + LAST_USED_GRANULARITY_MS);
    stamps.used('u1', ['A', 'B']);
    await stamps.flush();
    expect(written()).toEqual([['u1/A'], ['u1/B'], ['u1/A']]);
  });

  it('writes on its interval once started, nothing when nothing is due, and stops with the module', async () => {
    const { stamps, written } = setup();
    stamps.onModuleInit();
    stamps.used('u1', ['A']);
    await jest.advanceTimersByTimeAsync(SECRET_USE_STAMP_INTERVAL_MS - 1);
    expect(written()).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(written()).toEqual([['u1/A']]);
    await jest.advanceTimersByTimeAsync(3 * SECRET_USE_STAMP_INTERVAL_MS);
    expect(written()).toEqual([['u1/A']]);
    stamps.used('u1', ['B']);
    await stamps.onModuleDestroy();
    expect(written()).toEqual([['u1/A'], ['u1/B']]);
    stamps.used('u1', ['C']);
    await jest.advanceTimersByTimeAsync(3 * SECRET_USE_STAMP_INTERVAL_MS);
    expect(written()).toEqual([['u1/A'], ['u1/B']]);
  });

  it('keeps a failed write due, reports it with names only, and writes it at the next interval', async () => {
    const failure = Object.assign(new Error("Duplicate entry 'secret-value'"), {
      code: 'ECONNREFUSED',
    });
    const { stamps, touchNamed, written } = setup();
    touchNamed.mockRejectedValueOnce(failure);
    stamps.onModuleInit();
    stamps.used('u1', ['A']);
    await expect(stamps.flush()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(message).toMatch(/could not stamp last_used_at/);
    expect(fields).toEqual({
      err: expect.objectContaining({ type: 'Error', code: 'ECONNREFUSED' }),
      secrets: 1,
      names: [{ user_id: 'u1', secret_name: 'A' }],
    });
    expect(JSON.stringify(fields)).not.toContain('secret-value');

    stamps.used('u1', ['B']);
    await jest.advanceTimersByTimeAsync(SECRET_USE_STAMP_INTERVAL_MS);
    expect(written()).toEqual([['u1/A'], ['u1/A', 'u1/B']]);
    stamps.used('u1', ['A', 'B']);
    await stamps.flush();
    expect(touchNamed).toHaveBeenCalledTimes(2);
    await stamps.onModuleDestroy();
  });

  it('does not write again a secret used while its stamp was being written', async () => {
    const { stamps, touchNamed, written } = setup();
    let finish!: () => void;
    touchNamed.mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    stamps.onModuleInit();
    stamps.used('u1', ['A']);
    const first = stamps.flush();
    await jest.advanceTimersByTimeAsync(0);
    stamps.used('u1', ['A', 'B']);
    // The interval does not queue a write behind one under way.
    await jest.advanceTimersByTimeAsync(3 * SECRET_USE_STAMP_INTERVAL_MS);
    expect(touchNamed).toHaveBeenCalledTimes(1);
    finish();
    await first;
    await jest.advanceTimersByTimeAsync(0);
    expect(written()).toEqual([['u1/A']]);
    await stamps.flush();
    expect(written()).toEqual([['u1/A'], ['u1/B']]);
    await stamps.onModuleDestroy();
  });
});
