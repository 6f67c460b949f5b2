/** The producer side of the queue contract, for the call stack. */
export * from '../inbound-context/client';
export { CallEventsClient, type CallEventsClientOptions } from './call-events.client';
export type { RedisNode } from '../config/redis-target';
export {
  QUEUES,
  queueKeyPrefix,
  type QueueName,
  INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS,
  TOOL_CALL_JOB_OPTIONS,
  END_CALL_WEBHOOK_JOB_OPTIONS,
} from '../contracts/queues';
export * from '../contracts/tool-call.contract';
export * from '../contracts/end-call-webhook.contract';
