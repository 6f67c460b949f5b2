import { Logger } from '@nestjs/common';
import type { ConfigChanges } from '../audit/config-changes';
import type { VersionStamps } from '../common/cache/version-stamps';
import { AssistantViewCache } from './assistant-view.cache';

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
  const changes = { on: () => undefined } as unknown as ConfigChanges;
  const cache = new AssistantViewCache(stamps as unknown as VersionStamps, changes);
  let loads = 0;
  const load = () => Promise.resolve({ n: ++loads });
  return { stamps, cache, load, loads: () => loads };
}

describe(AssistantViewCache.name, () => {
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

  it('renew replaces the stamp: no process serves a view from before it', async () => {
    const { stamps, cache, load, loads } = setup();
    await cache.get('k', load);
    await cache.renew();
    expect(stamps.renewals).toBe(1);
    expect(await cache.get('k', load)).toEqual({ n: 2 });
    expect(loads()).toBe(2);
  });

  it('when the stamp cannot be renewed: renew still resolves (the write succeeds), this process forgets, a warning says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const { stamps, cache, load, loads } = setup();
      await cache.get('k', load);
      stamps.down = true;
      await expect(cache.renew()).resolves.toBeUndefined();
      stamps.down = false; // the stamp itself is unchanged: only the local copy is gone
      await cache.get('k', load);
      expect(loads()).toBe(2);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ stale_for_ms: 30_000 }),
        expect.stringContaining('could not renew the view stamp'),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
