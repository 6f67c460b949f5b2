import { Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '../config/app-config';
import { failFastRedis, type RedisConnection } from './redis/redis-connection';
import { loggableError } from './errors/loggable-error';
import { withTimeout } from './time/with-timeout';

const STORAGE_TIMEOUT_MS = 200;

/**
 * Counts in Redis, but never takes the API down with it: when Redis errors or does not answer
 * within 200 ms the request is let through (rate limiting is protection, not a dependency of
 * configuration CRUD), and the outage is logged once until Redis answers again.
 */
export class FailOpenThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(
    private readonly inner: ThrottlerStorage,
    private readonly close: () => void = () => undefined,
  ) {}

  /** Called by Nest on shutdown (the storage is the ThrottlerStorage provider's instance). */
  onModuleDestroy(): void {
    this.close();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await withTimeout(
        this.inner.increment(key, ttl, limit, blockDuration, name),
        STORAGE_TIMEOUT_MS,
        () => new Error(`rate-limit storage did not answer within ${STORAGE_TIMEOUT_MS} ms`),
      );
      if (this.failing) this.logger.warn('rate-limit storage answers again; limits enforced');
      this.failing = false;
      return record;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(
          { err: loggableError(error) },
          'rate-limit storage unavailable; requests are not limited until it answers',
        );
      this.failing = true;
      return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    }
  }
}

/**
 * Counts on Redis with plain commands, no script (nothing to load again after a restart): one
 * `INCR` of the bucket's count per request. The window starts with its first request, which sets
 * the count's expiry (`PEXPIRE`); the process remembers when each bucket's window ends (from that
 * expiry, or one `PTTL` when it did not start the window), so a request needs no second command to
 * say what is left of it. A count found without an expiry (its `PEXPIRE` lost) gets one then. A
 * spent bucket is refused until its window ends, which `Retry-After` says. The key
 * `{<bucket>:<name>}:hits` is its own hash slot, so it runs unchanged on a cluster.
 */
export class RedisCounterThrottlerStorage implements ThrottlerStorage {
  /** Bucket key → when its window ends (ms), as far as this process knows. */
  private readonly windowEnds = new LRUCache<string, number>({ max: 100_000 });

  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    const hits = `{${key}:${name}}:hits`;
    const totalHits = await this.redis.incr(hits);
    const now = this.now();
    const left = Math.max(
      0,
      Math.ceil(((await this.windowEnd(hits, totalHits, ttl)) - now) / 1000),
    );
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: left, isBlocked, timeToBlockExpire: isBlocked ? left : 0 };
  }

  /** When the window of `hits` ends: known, started by this count, or asked once. */
  private async windowEnd(hits: string, count: number, ttl: number): Promise<number> {
    const now = this.now();
    let ends = this.windowEnds.get(hits);
    if (count === 1 || ends === undefined || ends <= now) {
      let left = count === 1 ? -1 : await this.redis.pttl(hits);
      if (left < 0) {
        left = ttl;
        await this.redis.pexpire(hits, ttl);
      }
      ends = now + left;
      this.windowEnds.set(hits, ends);
    }
    return ends;
  }
}

/**
 * Storage of the request rate limits (`RATE_LIMIT_PER_MINUTE` per API key, see ApiThrottlerGuard):
 * Redis (one server or a cluster) when configured so every API process shares one budget, in
 * memory otherwise.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => {
        const target = config.get('queue.redis', { infer: true });
        const limit = config.get('app.rateLimitPerMinute', { infer: true });
        // Failures are reported by the storage wrapper, once per outage.
        const redis = target
          ? failFastRedis(target, {
              keyPrefix: `${config.get('queue.prefix', { infer: true })}:throttle:`,
            })
          : undefined;
        return {
          // Counted by ApiThrottlerGuard, which uses only the storage below.
          throttlers: [{ name: 'api', ttl: 60_000, limit }],
          storage: redis
            ? new FailOpenThrottlerStorage(new RedisCounterThrottlerStorage(redis), () =>
                redis.disconnect(),
              )
            : undefined,
        };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class ThrottleModule {}
