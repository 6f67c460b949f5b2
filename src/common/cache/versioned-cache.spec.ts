import { Logger } from '@nestjs/common';
import type { DataSource, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import type { VersionStamps } from './version-stamps';
import { VersionedCache } from './versioned-cache';

/** Stamps in memory, as VersionStamps keeps them without Redis; `down` makes reads and renewals fail. */
class FakeStamps {
  stamp: string | null = 's1';
  renewals = 0;
  down = false;
  read(): Promise<string | null> {
    return Promise.resolve(this.down ? null : this.stamp);
  }
  renew(): Promise<void> {
    if (this.down) return Promise.reject(new Error('redis down'));
    this.renewals += 1;
    this.stamp = `s${this.renewals + 1}`;
    return Promise.resolve();
  }
}

function setup() {
  const stamps = new FakeStamps();
  const dataSource = { subscribers: [] as EntitySubscriberInterface[] } as unknown as DataSource;
  const cache = new VersionedCache(stamps as unknown as VersionStamps, dataSource, {
    name: 'test-views',
    tables: ['assistants'],
    ttlMs: 60_000,
    maxChars: 1_000_000,
  });
  let loads = 0;
  const load = () => Promise.resolve({ n: ++loads });
  const runner = (isTransactionActive: boolean) =>
    ({ isTransactionActive, data: {} }) as unknown as QueryRunner;
  // What TypeORM calls after a statement (the transaction rules are committed-writes.spec.ts's).
  const [subscriber] = dataSource.subscribers;
  const write = (table: string, queryRunner: QueryRunner) =>
    subscriber.afterUpdate!({ metadata: { tableName: table }, queryRunner } as never);
  const commit = (queryRunner: QueryRunner) =>
    subscriber.afterTransactionCommit!({ queryRunner } as never);
  return { stamps, cache, load, runner, write, commit, loads: () => loads };
}

describe(VersionedCache.name, () => {
  it('serves a view from memory while its stamp is current, and reloads once it is not', async () => {
    const { stamps, cache, load, loads } = setup();
    expect(await cache.get('k', load)).toEqual({ n: 1 });
    expect(await cache.get('k', load)).toEqual({ n: 1 });
    expect(loads()).toBe(1);
    stamps.stamp = 'changed elsewhere';
    expect(await cache.get('k', load)).toEqual({ n: 2 });
    expect(await cache.get('other', load)).toEqual({ n: 3 });
  });

  it('reads through, and keeps nothing, while there is no stamp to rely on', async () => {
    const { stamps, cache, load, loads } = setup();
    stamps.down = true;
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads()).toBe(2);
    stamps.down = false;
    await cache.get('k', load);
    expect(loads()).toBe(3);
  });

  it('renews the stamp on a write outside a transaction, and the writer waits for it', async () => {
    const { stamps, write, runner } = setup();
    const pending = write('assistants', runner(false));
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(stamps.renewals).toBe(1);
  });

  it('renews the stamp after a committed transaction that wrote a watched table', async () => {
    const { stamps, write, commit, runner } = setup();
    const tx = runner(true);
    expect(write('assistants', tx)).toBeUndefined();
    expect(stamps.renewals).toBe(0);
    (tx as { isTransactionActive: boolean }).isTransactionActive = false;
    await commit(tx);
    expect(stamps.renewals).toBe(1);
  });

  it('when the stamp cannot be renewed: the write still succeeds, this process forgets, a warning says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const { stamps, cache, load, loads, write, runner } = setup();
      await cache.get('k', load);
      stamps.down = true;
      await expect(write('assistants', runner(false))).resolves.toBeUndefined();
      stamps.down = false; // the stamp itself is unchanged: only the local copy is gone
      await cache.get('k', load);
      expect(loads()).toBe(2);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ stale_for_ms: 60_000 }),
        expect.stringContaining('could not renew the view stamp'),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
