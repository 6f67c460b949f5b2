/**
 * Every queue in one table: its name, the options its jobs are added with and how many of its jobs
 * one worker process runs at once. Queue names are a public contract with the call stack
 * (producers add jobs to them by name); the shipped clients load this file, so it stays Nest-free.
 */
import type { JobOptions } from 'bull';
import {
  DEFAULT_QUEUE_PREFIX,
  MAX_WEBHOOK_TIMEOUT_SECONDS,
  STRATEGY_TIMEOUT_SECONDS,
} from './limits';

export const QUEUES = {
  INBOUND_CONTEXT_LOOKUP: 'inbound-context-lookup',
  TOOL_CALL: 'tool-call',
  END_CALL_WEBHOOK: 'end-call-webhook',
  MAINTENANCE: 'maintenance',
  CALL_ENDED: 'call-ended',
  EVENT_DELIVERY: 'event-delivery',
  TOOL_CALL_CANCEL: 'tool-call-cancel',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const ALL_QUEUES: QueueName[] = Object.values(QUEUES);

/**
 * A queue's Bull key prefix. On one Redis server: the service's `QUEUE_PREFIX`, default `bull`
 * (Bull's own, so `new Queue(name, REDIS_URL)` is served). On a Redis Cluster: the hash tag
 * `{<queue>}`, or `{<QUEUE_PREFIX>:<queue>}` when the service sets one, so all of a queue's keys
 * (which Bull's scripts touch together) live in one slot and the queues spread over the nodes.
 */
export function queueKeyPrefix(
  queue: QueueName,
  { cluster, prefix }: { cluster: boolean; prefix?: string },
): string {
  if (!cluster) return prefix || DEFAULT_QUEUE_PREFIX;
  return prefix ? `{${prefix}:${queue}}` : `{${queue}}`;
}

/**
 * Kept long enough for a producer that missed the completion event to read the result, bounded
 * so Redis does not grow without limit. Never `removeOnComplete: true`: that loses results.
 */
export const DEFAULT_JOB_OPTIONS = {
  removeOnComplete: { age: 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
} as const;

/**
 * How many times a job may be taken back from a worker that stopped and run again (Bull's
 * `maxStalledCount`, the same on every queue). The attempt journal makes a re-run safe: what an
 * earlier run sent is recorded once and a re-run sends with the same `webhook-id`. A job whose
 * worker stopped this many times completes as an error in its next run without sending, so none
 * ends as "job stalled more than allowable limit".
 */
export const MAX_STALLED_RUNS = 5;

/** Room for the database reads and the log write around the lookup's webhook call. */
const LOOKUP_JOB_MARGIN_MS = 2000;

export interface QueueSettings {
  /** Options a job of this queue is added with, by the shipped clients and by the service. */
  readonly options: JobOptions;
  /**
   * Jobs of this queue one worker process takes at once; of one owner, at most
   * `OWNER_MAX_IN_FLIGHT` run, the rest wait in the process (`OwnerGate`).
   */
  readonly concurrency: number;
}

/**
 * A queue of deliveries the service retries itself: one attempt per job, the next one added by
 * the processor as a delayed job. Failures are kept a week.
 */
const SERVICE_RETRIED_DELIVERIES = {
  options: {
    attempts: 1,
    timeout: 30_000,
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  },
  // Above the per-owner cap, as lookups.
  concurrency: 100,
} as const satisfies QueueSettings;

export const QUEUE_SETTINGS = {
  [QUEUES.INBOUND_CONTEXT_LOOKUP]: {
    // Answered once or not at all: retrying would start the call late, and every customer-side
    // failure is already a completed job with `status: "error"`. The timeout bounds a job by the
    // longest strategy timeout plus the margin.
    options: {
      attempts: 1,
      timeout: STRATEGY_TIMEOUT_SECONDS.max * 1000 + LOOKUP_JOB_MARGIN_MS,
      ...DEFAULT_JOB_OPTIONS,
    },
    // Lookups wait on customer endpoints, not on CPU. One owner may run this many at once (the
    // per-owner cap, OWNER_MAX_IN_FLIGHT, is not applied to lookups: a call waits for each).
    concurrency: 200,
  },
  [QUEUES.TOOL_CALL]: {
    // One attempt: the model is waiting, and a failure is an answer it can act on. The deadline
    // covers the longest tool timeout plus margin.
    options: { attempts: 1, timeout: (MAX_WEBHOOK_TIMEOUT_SECONDS + 10) * 1000 },
    // Tool calls wait on customer endpoints, not on this process; above the per-owner cap, as lookups.
    concurrency: 200,
  },
  // One attempt per job: the service schedules the next attempt itself (its
  // END_CALL_WEBHOOK_ATTEMPTS and END_CALL_WEBHOOK_BACKOFF_MS), so a producer needs no options
  // and producer-supplied `attempts` cannot multiply the service's.
  [QUEUES.END_CALL_WEBHOOK]: SERVICE_RETRIED_DELIVERIES,
  [QUEUES.MAINTENANCE]: {
    // The service's own tasks (src/queue/maintenance.ts): purges, each on a repeatable schedule
    // whose fixed job id keeps one schedule however many processes start, and the writes of
    // activity-log entries the database could not take. Retried 200 times, the backoff doubling
    // from 1 s to at most 30 s (the queue module's `capped` strategy): a database outage of well
    // over an hour loses no entry.
    options: {
      attempts: 200,
      backoff: { type: 'capped' },
      removeOnComplete: { age: 7 * 24 * 3600, count: 100 },
      removeOnFail: { age: 30 * 24 * 3600, count: 10_000 },
    },
    // Kept entries are written side by side (they share the log's group commit).
    concurrency: 10,
  },
  [QUEUES.CALL_ENDED]: {
    // Frees a slot in Redis, nothing else: a lost job costs at most the slot's lease.
    options: { attempts: 1, timeout: 10_000, ...DEFAULT_JOB_OPTIONS },
    concurrency: 50,
  },
  // The service's own queue: one event to one subscription (src/event-subscription), retried as
  // end-call deliveries are.
  [QUEUES.EVENT_DELIVERY]: SERVICE_RETRIED_DELIVERIES,
  [QUEUES.TOOL_CALL_CANCEL]: {
    // Marks a tool call cancelled, and at most one notice to the tool's URL (10 s at most).
    options: { attempts: 1, timeout: 20_000, ...DEFAULT_JOB_OPTIONS },
    concurrency: 50,
  },
} as const satisfies Record<QueueName, QueueSettings>;

/** The options each producer-facing queue's jobs are added with, under the names the clients export. */
export const INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS =
  QUEUE_SETTINGS[QUEUES.INBOUND_CONTEXT_LOOKUP].options;
export const TOOL_CALL_JOB_OPTIONS = QUEUE_SETTINGS[QUEUES.TOOL_CALL].options;
export const END_CALL_WEBHOOK_JOB_OPTIONS = QUEUE_SETTINGS[QUEUES.END_CALL_WEBHOOK].options;
export const CALL_ENDED_JOB_OPTIONS = QUEUE_SETTINGS[QUEUES.CALL_ENDED].options;
