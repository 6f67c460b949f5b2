/** The producer side of the queue contract, for the call stack. */
export * from '../../../src/contracts/inbound-context-lookup.contract';
export {
  InboundContextLookupClient,
  type LookupOptions,
  type FromRedisOptions,
} from './inbound-context-lookup.client';
export {
  JobWaitTimeoutError,
  JobFailedError,
  QueueUnavailableError,
} from '../../../src/queue/job-queue';
export type { FromRedisClusterOptions } from '../../../src/queue/producer-queue';
export { CallEventsClient, type CallEventsClientOptions } from './call-events.client';
export type { RedisNode } from '../../../src/config/redis-target';
export {
  QUEUES,
  queueKeyPrefix,
  type QueueName,
  INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS,
  TOOL_CALL_JOB_OPTIONS,
  END_CALL_WEBHOOK_JOB_OPTIONS,
  CALL_ENDED_JOB_OPTIONS,
} from '../../../src/contracts/queues';
export * from '../../../src/contracts/tool-call.contract';
export * from '../../../src/contracts/end-call-webhook.contract';
export * from '../../../src/contracts/call-ended.contract';
