import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
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
    {
      provide: AttemptJournal,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>): AttemptJournal => {
        const redis = config.get('queue.redis', { infer: true });
        return redis
          ? new RedisAttemptJournal(redis, config.get('queue.queuePrefixes', { infer: true }))
          : new LocalAttemptJournal();
      },
    },
    AttemptLedger,
  ],
  exports: [AttemptLedger, AttemptJournal],
})
export class AttemptJournalModule {}
