import type { RedisTarget } from '../../config/redis-target';
import { connectRedis, redisRetryStrategy, type RedisConnection } from './redis-connection';

/**
 * A Redis connection for writes a caller must not wait on once Redis is lost. While it first
 * connects, commands wait for it (a start beside a starting Redis works); once it has lost Redis,
 * `connection()` throws at once until Redis is back, and `onRecovered` listeners run then, so the
 * owner can redo what it could not write. Commands in flight when Redis goes fail with the first
 * failed reconnect, not after several; a shutdown never waits on them.
 */
export class GuardedRedis {
  private readonly redis: RedisConnection;
  private down = false;
  private readonly recovered: (() => void)[] = [];

  /**
   * `autoPipelining`: commands issued in one event-loop turn leave in one write (for a connection
   * on a request path, where each write is a system call per command otherwise).
   */
  constructor(
    target: RedisTarget,
    private readonly what: string,
    { autoPipelining = false }: { autoPipelining?: boolean } = {},
  ) {
    this.redis = connectRedis(target, {
      retryStrategy: redisRetryStrategy,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: autoPipelining,
    });
    const lost = () => (this.down = true);
    this.redis.on('error', lost);
    this.redis.on('close', lost);
    this.redis.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      for (const listener of this.recovered) listener();
    });
  }

  /** The connection, or an error at once while Redis is lost. */
  connection(): RedisConnection {
    if (this.down) throw new Error(`Redis does not answer: ${this.what}`);
    return this.redis;
  }

  /** Runs `listener` each time Redis answers again after it was lost. */
  onRecovered(listener: () => void): void {
    this.recovered.push(listener);
  }

  disconnect(): void {
    this.down = true;
    this.redis.disconnect();
  }
}
