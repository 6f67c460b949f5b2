import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';
import { CallSlots, type SlotRequest } from './call-slots';

/**
 * `take` in one script on the number's sorted set (room → lease end, ms). KEYS[1] the set; ARGV:
 * room, now, lease end, cap, lease (ms). Drops ended leases, keeps a room's slot, adds one below
 * the cap; the set lives as long as its longest lease. Returns 1 when the room holds a slot.
 */
const TAKE_SCRIPT = `
local key, room, now, lease_end, cap, ttl = KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if redis.call('ZSCORE', key, room) then return 1 end
if redis.call('ZCARD', key) >= cap then return 0 end
redis.call('ZADD', key, lease_end, room)
if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
return 1
`;

type TakeRedis = RedisConnection & {
  callSlotTake(key: string, ...args: (string | number)[]): Promise<unknown>;
};

/**
 * Shared by every process: per number the sorted set `<QUEUE_PREFIX>:call-slots:{<inbound_id>}`,
 * per room `<QUEUE_PREFIX>:call-slot-room:<room>` (the number whose slot it holds, with the same
 * lease). Every command names one key, so it runs on a Redis Cluster unchanged. A lookup sends the
 * script and the room's record in the same turn (one round trip, auto-pipelined). Redis being
 * unreachable does not stop calls: the slot is not counted (the service log says so).
 */
export class RedisCallSlots extends CallSlots implements OnModuleDestroy {
  private readonly logger = new Logger('CallSlots');
  private readonly shared: SharedRedis;
  private readonly redis: TakeRedis;

  constructor(
    target: RedisTarget,
    private readonly prefix: string,
  ) {
    super();
    this.shared = sharedFailFastRedis(target);
    // Sent as EVALSHA; ioredis loads it again after a Redis restart.
    this.shared.connection.defineCommand('callSlotTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = this.shared.connection as TakeRedis;
  }

  private numberKey(inboundId: string): string {
    return `${this.prefix}:call-slots:{${inboundId}}`;
  }

  private roomKey(roomName: string): string {
    return `${this.prefix}:call-slot-room:${roomName}`;
  }

  async take(request: SlotRequest, now = Date.now()): Promise<boolean> {
    const { inboundId, roomName, cap, ttlSeconds } = request;
    const ttl = ttlSeconds * 1000;
    try {
      const [held] = await Promise.all([
        this.redis.callSlotTake(this.numberKey(inboundId), roomName, now, now + ttl, cap, ttl),
        this.redis.set(this.roomKey(roomName), inboundId, 'PX', ttl),
      ]);
      return held === 1;
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error), inbound_id: inboundId },
        "could not count the number's concurrent calls; the call is let through",
      );
      return true;
    }
  }

  async free(roomName: string, inboundId?: string | null): Promise<boolean> {
    try {
      const number = (await this.redis.get(this.roomKey(roomName))) ?? inboundId;
      if (!number) return false;
      const [removed] = await Promise.all([
        this.redis.zrem(this.numberKey(number), roomName),
        this.redis.del(this.roomKey(roomName)),
      ]);
      return removed === 1;
    } catch (error) {
      this.logger.warn(
        { err: loggableError(error) },
        "could not free the room's call slot; its lease frees it",
      );
      return false;
    }
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}
