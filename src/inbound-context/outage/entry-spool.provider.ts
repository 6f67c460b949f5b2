import { redisOrMemoryProvider } from '../../common/redis/redis-or-memory.provider';
import { EntrySpool, MemoryEntrySpool, RedisEntrySpool } from './entry-spool';

/** The lookup log spool on Redis (any process may drain it), or in memory in embedded mode. */
export const entrySpoolProvider = redisOrMemoryProvider(
  EntrySpool,
  (redis, config) => new RedisEntrySpool(redis, config.get('queue.prefix', { infer: true })),
  () => new MemoryEntrySpool(),
);
