import { Module } from '@nestjs/common';
import { AttemptJournalModule } from '../../activity-log/attempt-journal.module';
import { AuthModule } from '../../auth/auth.module';
import { QueueWorkerModule } from '../../queue/queue-worker.module';
import { LookupModule } from '../lookup.module';
import { CallEndedProcessor } from './call-ended.job';
import { InboundContextLookupProcessor } from './inbound-context-lookup.job';

/** The `inbound-context-lookup` and `call-ended` queues' consumers; imported only by processes that run jobs. */
@Module({
  // AuthModule: the lookup signs its webhook request with the owner's secret.
  imports: [LookupModule, AuthModule, QueueWorkerModule, AttemptJournalModule],
  providers: [InboundContextLookupProcessor, CallEndedProcessor],
})
export class LookupJobsModule {}
