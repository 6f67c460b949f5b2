import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type Redis from 'ioredis';
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

type ScriptedRedis = RedisConnection & {
  throttleIncrement(...args: (string | number)[]): Promise<unknown>;
};

/**
 * The Redis storage of `@nest-lab/throttler-storage-redis` with its own Lua script and key names, but
 * sent as EVALSHA (ioredis `defineCommand`, which loads the script again after a Redis restart)
 * instead of shipping the whole script text with EVAL on every request.
 */
export class EvalShaThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly scripted: ScriptedRedis;

  constructor(redis: RedisConnection) {
    // Both keys of a count share the hash tag `{<key>:<name>}`: one slot on a cluster.
    // (It takes a Cluster too; its overloads just cannot be called with the union.)
    super(redis as Redis);
    redis.defineCommand('throttleIncrement', { numberOfKeys: 2, lua: this.scriptSrc });
    this.scripted = redis as ScriptedRedis;
  }

  override async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    const result = await this.scripted.throttleIncrement(
      `{${key}:${name}}:hits`,
      `{${key}:${name}}:blocked`,
      name,
      ttl,
      limit,
      blockDuration,
    );
    if (!Array.isArray(result) || result.length !== 4 || !result.every(Number.isFinite))
      throw new TypeError(`unexpected rate-limit script result: ${String(result)}`);
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = result as number[];
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
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
            ? new FailOpenThrottlerStorage(new EvalShaThrottlerStorage(redis), () =>
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
