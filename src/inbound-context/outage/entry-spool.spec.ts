import { RedisEntrySpool } from './entry-spool';

/** Every rejection no handler took, while `run` runs and a moment after. */
async function unhandledDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('RedisEntrySpool with Redis lost', () => {
  // Nothing listens there: the connection is lost at its first try.
  const spool = new RedisEntrySpool({ kind: 'node', url: 'redis://127.0.0.1:1' }, 'spec');

  beforeAll(async () => {
    for (let tries = 0; tries < 100; tries++) {
      const lost = await spool.pending().then(
        () => false,
        () => true,
      );
      if (lost) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  afterAll(() => spool.onApplicationShutdown());

  it('rejects pending() with the lost connection, leaving no other rejection unhandled', async () => {
    await expect(spool.pending()).rejects.toThrow('Redis does not answer');
    expect(await unhandledDuring(() => spool.pending())).toEqual([]);
  });

  it('rejects each command at once', async () => {
    const item = { id: 'a', attempts: 0, entry: {} as never };
    await expect(spool.keep(item)).rejects.toThrow('Redis does not answer');
    await expect(spool.head(1)).rejects.toThrow('Redis does not answer');
    await expect(spool.drop(1, item)).rejects.toThrow('Redis does not answer');
  });
});
