import { redisOrMemoryProvider } from '../../common/redis/redis-or-memory.provider';
import { RedisRoutingStore } from './redis-routing-store';
import { MemoryRoutingStore, RoutingStore } from './routing-store';

/** The routing table on Redis (shared by every process), or in memory in embedded mode. */
export const routingStoreProvider = redisOrMemoryProvider(
  RoutingStore,
  (redis, config) => new RedisRoutingStore(redis, config.get('queue.prefix', { infer: true })),
  () => new MemoryRoutingStore(),
);
