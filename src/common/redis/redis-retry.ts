import Redis, { type RedisOptions } from 'ioredis';

/** Reconnect delay after the n-th failed attempt: 200 ms more each time, at most 2 s (ioredis' default backs off towards 20 s). */
export const redisRetryStrategy = (attempt: number): number => Math.min(attempt * 200, 2000);

/**
 * A Redis connection for a request path that must never wait on Redis: while Redis is down its
 * commands fail at once (no offline queue, one retry) and the caller falls back; it reconnects on
 * `redisRetryStrategy`; and commands issued in the same event-loop turn go to Redis in one write
 * (ioredis auto-pipelining, batched until setImmediate). Its callers report the failures they see,
 * so the connection's own 'error' events are dropped.
 */
export function failFastRedis(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    ...options,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    retryStrategy: redisRetryStrategy,
  });
  redis.on('error', () => undefined);
  return redis;
}
