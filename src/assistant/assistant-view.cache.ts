import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AuditResourceType } from '../audit/audit.types';
import { ConfigChanges } from '../audit/config-changes';
import { VersionStamps } from '../common/cache/version-stamps';
import { loggableError } from '../common/errors/loggable-error';

/** The changes that alter a view: the assistant itself, or a tool attached, detached or deleted. */
const VIEW_RESOURCES: ReadonlySet<AuditResourceType> = new Set(['assistant', 'tool']);

/** Names the stamp (`<QUEUE_PREFIX>:view-stamp:assistant-views`). */
const STAMP_NAME = 'assistant-views';
/** Backstop for a change whose new stamp could not be recorded (Redis failing at that moment). */
const TTL_MS = 30_000;

interface Entry {
  stamp: string;
  value: object;
}

/**
 * The public views `GET /assistant/details/:id` and `GET /assistant/list` answer with, cached per
 * process with read-your-writes across processes. Every view is stored with the stamp
 * (VersionStamps) read before it was loaded, and served only while the stamp is still current, so
 * each read costs one Redis GET instead of the database statements. Every committed assistant or
 * tool change (deleting a tool detaches it, in its transaction) renews the stamp before the
 * writing request goes on, so once a client has its answer to a write, no process serves a view
 * from before it. A user's deletion (its assistants go by foreign key) leaves no key that could
 * read them. With no stamp to rely on (Redis down), reads go to the database. Bound: were a new
 * stamp not recorded (this process cut off from Redis), this process empties its own cache at
 * once and reads no stamp until the renewal is made, on reconnect; other processes could serve
 * the earlier view until then, and never past `TTL_MS`.
 */
@Injectable()
export class AssistantViewCache {
  private readonly logger = new Logger(`ViewCache:${STAMP_NAME}`);
  private readonly entries = new LRUCache<string, Entry>({
    max: 20_000,
    ttl: TTL_MS,
    // Bound on the cached views' size, counted in characters of their JSON.
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.value).length),
  });

  constructor(
    private readonly stamps: VersionStamps,
    changes: ConfigChanges,
  ) {
    changes.on(({ resource_types }) => {
      if ([...resource_types].some((type) => VIEW_RESOURCES.has(type))) return this.renew();
    });
  }

  /** The view under `key`: from memory while its stamp is current, else `load()`'s, kept. */
  async get<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
    const stamp = await this.stamps.read(STAMP_NAME);
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
      await this.stamps.renew(STAMP_NAME);
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), stale_for_ms: TTL_MS },
        'could not renew the view stamp: other processes may serve views from before this write until it is renewed (on reconnect), at most stale_for_ms',
      );
    }
  }
}
