import type { JobOptions } from 'bull';
import { STRATEGY_TIMEOUT_SECONDS } from './inbound-context.constants';

/** Room for the database reads and the log write around the webhook call. */
export const LOOKUP_JOB_MARGIN_MS = 2000;

/**
 * A lookup is answered once or not at all: retrying would start the call late, and every
 * customer-side failure is already a completed job with `status: "error"`. The Bull timeout
 * bounds a job by the longest strategy timeout plus the margin.
 */
export const INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS = {
  attempts: 1,
  timeout: STRATEGY_TIMEOUT_SECONDS.max * 1000 + LOOKUP_JOB_MARGIN_MS,
  removeOnComplete: { age: 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
} as const satisfies JobOptions;

/** Lookups wait on customer endpoints, not on CPU, so many run at once per worker. */
export const INBOUND_CONTEXT_LOOKUP_CONCURRENCY = 50;
