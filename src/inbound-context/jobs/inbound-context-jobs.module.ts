import { Module } from '@nestjs/common';
import { AttemptJournalModule } from '../../activity-log/attempt-journal.module';
import { AuthModule } from '../../auth/auth.module';
import { QueueWorkerModule } from '../../queue/queue-worker.module';
import { InboundContextModule } from '../inbound-context.module';
import { InboundContextLookupProcessor } from './inbound-context-lookup.job';

/** The `inbound-context-lookup` queue's consumer; imported only by processes that run jobs. */
@Module({
  // AuthModule: the lookup signs its webhook request with the owner's secret.
  imports: [InboundContextModule, AuthModule, QueueWorkerModule, AttemptJournalModule],
  providers: [InboundContextLookupProcessor],
})
export class InboundContextJobsModule {}
