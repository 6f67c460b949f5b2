/** The producer side of the queue contract, for the call stack. */
export * from '../contracts/inbound-context-lookup.contract';
export {
  InboundContextLookupClient,
  type LookupOptions,
  type FromRedisOptions,
} from './inbound-context-lookup.client';
export { JobWaitTimeoutError, JobFailedError, QueueUnavailableError } from '../queue/job-queue';
export type { FromRedisClusterOptions } from '../queue/producer-queue';
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
