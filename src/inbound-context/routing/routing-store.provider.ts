import type { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { MemoryRoutingStore, RedisRoutingStore, RoutingStore } from './routing-store';

/** The routing table on Redis (shared by every process), or in memory in embedded mode. */
export const routingStoreProvider: Provider = {
  provide: RoutingStore,
  inject: [ConfigService],
  useFactory: (config: ConfigService<AppConfig, true>): RoutingStore => {
    const redis = config.get('queue.redis', { infer: true });
    return redis
      ? new RedisRoutingStore(redis, config.get('queue.prefix', { infer: true }))
      : new MemoryRoutingStore();
  },
};
