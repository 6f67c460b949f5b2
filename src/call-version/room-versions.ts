import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { loggableError } from '../common/errors/loggable-error';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';

/** How long a lookup's choice of version is remembered for the call's later jobs. */
export const ROOM_VERSION_TTL_MS = 24 * 3600 * 1000;

/** A version as remembered: a published version's number, or null for the working copy. */
export type RememberedVersion = number | null;

/**
 * (assistant, room) → the version the room's inbound lookup resolved, kept 24 h, so the call's
 * `tool-call` and `end-call-webhook` jobs run what the lookup rendered without the producer
 * passing it along. `recall` is undefined when the room has no lookup on record.
 */
export abstract class RoomVersions {
  abstract remember(
    assistantId: string,
    roomName: string,
    version: RememberedVersion,
  ): Promise<void>;
  abstract recall(assistantId: string, roomName: string): Promise<RememberedVersion | undefined>;
}

const WORKING_COPY = 'working';

export function encodeVersion(version: RememberedVersion): string {
  return version === null ? WORKING_COPY : String(version);
}

export function decodeVersion(text: string | null | undefined): RememberedVersion | undefined {
  if (text === null || text === undefined) return undefined;
  if (text === WORKING_COPY) return null;
  const version = Number(text);
  return Number.isInteger(version) && version >= 1 ? version : undefined;
}

/** One process (embedded mode): API and jobs share this memory. Bounded, oldest dropped first. */
export class LocalRoomVersions extends RoomVersions {
  private readonly entries: LRUCache<string, string>;

  /**
   * `clock` is what the TTL is measured on: the process's monotonic clock, read at most once a
   * millisecond, unless a test gives its own (read at every call).
   */
  constructor(ttlMs = ROOM_VERSION_TTL_MS, max = 100_000, clock?: { now(): number }) {
    super();
    this.entries = new LRUCache<string, string>({
      max,
      ttl: ttlMs,
      ...(clock && { perf: clock, ttlResolution: 0 }),
    });
  }

  remember(assistantId: string, roomName: string, version: RememberedVersion): Promise<void> {
    this.entries.set(JSON.stringify([assistantId, roomName]), encodeVersion(version));
    return Promise.resolve();
  }

  recall(assistantId: string, roomName: string): Promise<RememberedVersion | undefined> {
    return Promise.resolve(
      decodeVersion(this.entries.get(JSON.stringify([assistantId, roomName]))),
    );
  }
}

/**
 * Shared by every process on Redis: `<QUEUE_PREFIX>:room-version:<assistant>:<room>`, expiring
 * after 24 h. Redis being unreachable is not a call failure: a lost entry means the call's later
 * jobs run the working copy, and the service log says so.
 */
export class RedisRoomVersions extends RoomVersions implements OnModuleDestroy {
  private readonly logger = new Logger('RoomVersions');
  private readonly shared: SharedRedis;
  private readonly redis: RedisConnection;

  constructor(
    target: RedisTarget,
    private readonly prefix: string,
    private readonly ttlMs = ROOM_VERSION_TTL_MS,
  ) {
    super();
    // Never waits on Redis: the call is waiting on the lookup and the tool call.
    this.shared = sharedFailFastRedis(target);
    this.redis = this.shared.connection;
  }

  private key(assistantId: string, roomName: string): string {
    return `${this.prefix}:room-version:${assistantId}:${roomName}`;
  }

  async remember(assistantId: string, roomName: string, version: RememberedVersion): Promise<void> {
    try {
      await this.redis.set(
        this.key(assistantId, roomName),
        encodeVersion(version),
        'PX',
        this.ttlMs,
      );
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), assistant_id: assistantId },
        "could not remember the room's version; its later jobs run the working copy",
      );
    }
  }

  async recall(assistantId: string, roomName: string): Promise<RememberedVersion | undefined> {
    try {
      return decodeVersion(await this.redis.get(this.key(assistantId, roomName)));
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), assistant_id: assistantId },
        "could not read the room's version; running the working copy",
      );
      return undefined;
    }
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}
