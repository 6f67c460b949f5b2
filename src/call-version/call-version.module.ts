import { Module } from '@nestjs/common';
import { redisOrMemoryProvider } from '../common/redis/redis-or-memory.provider';
import { CallVersions } from './call-versions';
import { LocalRoomVersions, RedisRoomVersions, RoomVersions } from './room-versions';

/**
 * Which published version a call runs: the lookup remembers its choice per (assistant, room), the
 * call-time jobs read it back (and load the version through the assistant module's PublishedVersions). One instance per process, so in embedded
 * mode the lookup and the jobs share the in-process memory.
 */
@Module({
  providers: [
    redisOrMemoryProvider(
      RoomVersions,
      (redis, config) => new RedisRoomVersions(redis, config.get('queue.prefix', { infer: true })),
      () => new LocalRoomVersions(),
    ),
    CallVersions,
  ],
  exports: [RoomVersions, CallVersions],
})
export class CallVersionModule {}
