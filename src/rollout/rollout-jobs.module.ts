import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { TenantEventsModule } from '../event-subscription/tenant-events.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { GuardrailWatch } from './guardrail-watch';
import { SplitCallEntity } from './split-call.entity';

/** The split guardrail, in the processes that write the calls' entries (they run the jobs). */
@Module({
  imports: [
    TypeOrmModule.forFeature([SplitCallEntity]),
    ActivityLogModule,
    InboundContextModule,
    TenantEventsModule,
  ],
  providers: [GuardrailWatch],
  exports: [GuardrailWatch],
})
export class RolloutJobsModule {}
