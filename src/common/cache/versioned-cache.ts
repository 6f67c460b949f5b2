import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { loggableError } from '../errors/loggable-error';
import type { VersionStamps } from './version-stamps';

export interface VersionedCacheOptions {
  /** Names the stamp (`<QUEUE_PREFIX>:view-stamp:<name>`) and the log context (`ViewCache:<name>`). */
  name: string;
  /** Backstop for a change whose new stamp could not be recorded (Redis failing at that moment). */
  ttlMs: number;
  /** Bound on the cached views' size, counted in characters of their JSON. */
  maxChars: number;
}

interface Entry {
  stamp: string;
  value: object;
}

/**
 * A per-process cache of read views that keeps read-your-writes across processes. Every view is
 * stored with the stamp (VersionStamps) read before it was loaded, and served only while the
 * stamp is still current, so each read costs one Redis GET instead of the database statements.
 * The owner calls `renew` after every committed change to what the views show, before the writing
 * request goes on, so once a client has its answer to a write, no process serves a view from
 * before it. With no stamp to rely on (Redis down), reads go to the
 * database. Bound: were a new stamp not recorded (this process cut off from Redis), this process
 * empties its own cache at once and reads no stamp until the renewal is made, on reconnect; other
 * processes could serve the earlier view until then, and never past `ttlMs`.
 */
export class VersionedCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly logger: Logger;

  constructor(
    private readonly stamps: VersionStamps,
    private readonly options: VersionedCacheOptions,
  ) {
    this.entries = new LRUCache<string, Entry>({
      max: 20_000,
      ttl: options.ttlMs,
      maxSize: options.maxChars,
      sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.value).length),
    });
    this.logger = new Logger(`ViewCache:${options.name}`);
  }

  /** The view under `key`: from memory while its stamp is current, else `load()`'s, kept. */
  async get<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
    const stamp = await this.stamps.read(this.options.name);
    if (stamp === null) return load();
    const hit = this.entries.get(key);
    if (hit?.stamp === stamp) return hit.value as T;
    const value = await load();
    this.entries.set(key, { stamp, value });
    return value;
  }

  /** Makes every cached view stale, here at once and in every process once the stamp is renewed. */
  async renew(): Promise<void> {
    this.entries.clear();
    try {
      await this.stamps.renew(this.options.name);
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), stale_for_ms: this.options.ttlMs },
        'could not renew the view stamp: other processes may serve views from before this write until it is renewed (on reconnect), at most stale_for_ms',
      );
    }
  }
}
