/** Queue names are a public contract with the call stack: producers add jobs to these by name. */
export const QUEUES = {
  INBOUND_CONTEXT_LOOKUP: 'inbound-context-lookup',
  TOOL_CALL: 'tool-call',
  END_CALL_WEBHOOK: 'end-call-webhook',
  MAINTENANCE: 'maintenance',
} as const;

/**
 * Bull's own default key prefix: a producer that creates `new Queue(name, REDIS_URL)` with no
 * options is served. `QUEUE_PREFIX` overrides it; producers then pass `{ prefix }`.
 */
export const DEFAULT_QUEUE_PREFIX = 'bull';

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const ALL_QUEUES: QueueName[] = Object.values(QUEUES);

/**
 * Kept long enough for a producer that missed the completion event to read the result, bounded
 * so Redis does not grow without limit. Never `removeOnComplete: true`: that loses results.
 */
export const DEFAULT_JOB_OPTIONS = {
  removeOnComplete: { age: 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
} as const;
