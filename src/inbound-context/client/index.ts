export * from '../../contracts/inbound-context-lookup.contract';
export {
  InboundContextLookupClient,
  type LookupOptions,
  type FromRedisOptions,
} from './inbound-context-lookup.client';
export { JobWaitTimeoutError, JobFailedError, QueueUnavailableError } from '../../queue/job-queue';
export type { FromRedisClusterOptions } from '../../queue/producer-queue';
