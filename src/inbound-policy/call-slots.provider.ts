import { redisOrMemoryProvider } from '../common/redis/redis-or-memory.provider';
import { CallSlots, MemoryCallSlots } from './call-slots';
import { RedisCallSlots } from './redis-call-slots';

/** The call slots on Redis (shared by every process), or in memory in embedded mode. */
export const callSlotsProvider = redisOrMemoryProvider(
  CallSlots,
  (redis, config) => new RedisCallSlots(redis, config.get('queue.prefix', { infer: true })),
  () => new MemoryCallSlots(),
);
