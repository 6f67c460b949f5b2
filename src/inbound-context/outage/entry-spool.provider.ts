import type { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { EntrySpool, MemoryEntrySpool, RedisEntrySpool } from './entry-spool';

/** The lookup log spool on Redis (any process may drain it), or in memory in embedded mode. */
export const entrySpoolProvider: Provider = {
  provide: EntrySpool,
  inject: [ConfigService],
  useFactory: (config: ConfigService<AppConfig, true>): EntrySpool => {
    const redis = config.get('queue.redis', { infer: true });
    return redis
      ? new RedisEntrySpool(redis, config.get('queue.prefix', { infer: true }))
      : new MemoryEntrySpool();
  },
};
