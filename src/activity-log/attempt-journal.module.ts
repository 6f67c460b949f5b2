import { Module } from '@nestjs/common';
import { redisOrMemoryProvider } from '../common/redis/redis-or-memory.provider';
import { ActivityLogModule } from './activity-log.module';
import { AttemptJournal, LocalAttemptJournal, RedisAttemptJournal } from './attempt-journal';
import { AttemptLedger } from './attempt-ledger';

/**
 * The attempt journal of the jobs that call customers' webhooks (tool calls, end-call deliveries):
 * on Redis beside the queues' own keys, in process in embedded mode. Imported by the jobs modules
 * only, so an API process opens no connection for it.
 */
@Module({
  imports: [ActivityLogModule],
  providers: [
    redisOrMemoryProvider(
      AttemptJournal,
      (redis, config) =>
        new RedisAttemptJournal(redis, config.get('queue.queuePrefixes', { infer: true })),
      () => new LocalAttemptJournal(),
    ),
    AttemptLedger,
  ],
  exports: [AttemptLedger, AttemptJournal],
})
export class AttemptJournalModule {}
