import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../../activity-log/activity-log.module';
import { AttemptJournalModule } from '../../activity-log/attempt-journal.module';
import { AssistantModule } from '../../assistant/assistant.module';
import { AuthModule } from '../../auth/auth.module';
import { OutboundHttpModule } from '../../common/http/outbound-http.module';
import { QueueWorkerModule } from '../../queue/queue-worker.module';
import { CallVersionModule } from '../../call-version/call-version.module';
import { SecretStoreModule } from '../../secret/secret-store.module';
import { redisOrMemoryProvider } from '../../common/redis/redis-or-memory.provider';
import { QUEUES } from '../../contracts/queues';
import { CallCancellation } from '../call-cancellation';
import { CallCancels, LocalCallCancels, RedisCallCancels } from '../call-cancels';
import { CallClaims, LocalCallClaims, RedisCallClaims } from '../call-claims';
import { CallToolResolver } from '../call-tool';
import { SingleFlight } from '../single-flight';
import { ToolCallService } from '../tool-call.service';
import { ToolModule } from '../tool.module';
import { ToolCallCancelProcessor } from './tool-call-cancel.job';
import { ToolCallProcessor } from './tool-call.job';

/** The `tool-call` and `tool-call-cancel` queues' consumers; imported only by processes that run jobs. */
@Module({
  imports: [
    ToolModule,
    // The call's assistant, its log entry, the webhook request and its signing secret.
    AssistantModule,
    ActivityLogModule,
    AttemptJournalModule,
    OutboundHttpModule,
    AuthModule,
    QueueWorkerModule,
    SecretStoreModule,
    // Which version the call runs, and that version's tools.
    CallVersionModule,
  ],
  providers: [
    ToolCallService,
    CallToolResolver,
    ToolCallProcessor,
    SingleFlight,
    // Single flight of irreversible calls: on Redis beside the tool-call queue, else in process.
    redisOrMemoryProvider(
      CallClaims,
      (redis, config) =>
        new RedisCallClaims(
          redis,
          config.get('queue.queuePrefixes', { infer: true })[QUEUES.TOOL_CALL],
        ),
      () => new LocalCallClaims(),
    ),
    CallCancellation,
    ToolCallCancelProcessor,
    redisOrMemoryProvider(
      CallCancels,
      (redis, config) =>
        new RedisCallCancels(
          redis,
          config.get('queue.queuePrefixes', { infer: true })[QUEUES.TOOL_CALL],
        ),
      () => new LocalCallCancels(),
    ),
  ],
})
export class ToolJobsModule {}
