import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';

/**
 * Request rate limits: `RATE_LIMIT_PER_MINUTE` per API key (per IP without a valid key), counted in
 * Redis when REDIS_URL is set so every API process shares one budget, in memory otherwise.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => {
        const redisUrl = config.get<string | null>('queue.redisUrl');
        const limit = config.get<number>('app.rateLimitPerMinute', 600);
        return {
          throttlers: [{ name: 'default', ttl: 60_000, limit }],
          skipIf: () => limit === 0,
          storage: redisUrl
            ? new ThrottlerStorageRedisService(redisUrl, { keyPrefix: `${config.get<string>('queue.prefix')}:throttle:` })
            : undefined,
        };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class ThrottleModule {}
