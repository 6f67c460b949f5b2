import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../../activity-log/activity-log.module';
import { AttemptJournalModule } from '../../activity-log/attempt-journal.module';
import { AuthModule } from '../../auth/auth.module';
import { OutboundHttpModule } from '../../common/http/outbound-http.module';
import { QueueWorkerModule } from '../../queue/queue-worker.module';
import { CallVersionModule } from '../../call-version/call-version.module';
import { SecretStoreModule } from '../../secret/secret-store.module';
import { AssistantModule } from '../assistant.module';
import { EndCallWebhookService } from '../end-call-webhook.service';
import { EndCallWebhookProcessor } from './end-call-webhook.job';

/** The `end-call-webhook` queue's consumer; imported only by processes that run jobs. */
@Module({
  imports: [
    AssistantModule,
    // The delivery's log entry, the webhook request and its signing secret.
    ActivityLogModule,
    AttemptJournalModule,
    OutboundHttpModule,
    AuthModule,
    QueueWorkerModule,
    SecretStoreModule,
    // Which version the call runs, and that version's end-call URL.
    CallVersionModule,
  ],
  providers: [EndCallWebhookService, EndCallWebhookProcessor],
})
export class AssistantJobsModule {}
