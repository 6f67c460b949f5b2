import type { Abstract, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import type { RedisTarget } from '../../config/redis-target';

/**
 * Provides `token` on Redis when the process has one (shared by every process), else in this
 * process's memory (embedded mode): `onRedis` gets the Redis target and the config.
 */
export function redisOrMemoryProvider<T>(
  token: Abstract<T>,
  onRedis: (redis: RedisTarget, config: ConfigService<AppConfig, true>) => T,
  inMemory: () => T,
): Provider {
  return {
    provide: token,
    inject: [ConfigService],
    useFactory: (config: ConfigService<AppConfig, true>): T => {
      const redis = config.get('queue.redis', { infer: true });
      return redis ? onRedis(redis, config) : inMemory();
    },
  };
}
