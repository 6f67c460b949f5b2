/**
 * The public contract of the `end-call-webhook` queue, shared by the processor and the producer
 * client. No Nest or database imports: producers load it alone.
 */
import type { JobOptions } from 'bull';
import { JobContract } from './job-contract';

export const END_CALL_WEBHOOK_QUEUE = 'end-call-webhook';

/** Data of an `end-call-webhook` job, as the call stack sends it. */
export interface EndCallJobData {
  assistant_id: string;
  room_name: string;
  /** The call-ended payload, POSTed as is. */
  payload: unknown;
}

/** Return value of an `end-call-webhook` job (of its last attempt). */
export interface EndCallOutcome {
  status: 'delivered' | 'skipped' | 'retry' | 'failed';
  status_code: number | null;
  attempt: number;
  error: string | null;
  log_id: string | null;
}

export const endCallWebhookContract = new JobContract<EndCallJobData, EndCallOutcome>({
  queue: END_CALL_WEBHOOK_QUEUE,
  description:
    "Delivers a call-ended payload to the assistant's end-call URL, retried by the service on transient failures.",
  data: {
    type: 'object',
    properties: {
      assistant_id: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '\\S',
        description: 'The assistant of the call.',
      },
      room_name: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '\\S',
        description: 'Real-time room name of the call.',
      },
      payload: { description: 'The call-ended payload, POSTed as is.' },
    },
    required: ['assistant_id', 'room_name', 'payload'],
  },
  result: {
    type: 'object',
    properties: {
      status: { enum: ['delivered', 'skipped', 'retry', 'failed'] },
      status_code: { type: ['integer', 'null'] },
      attempt: { type: 'integer', minimum: 1 },
      error: { type: ['string', 'null'] },
      log_id: { type: ['string', 'null'] },
    },
    required: ['status', 'status_code', 'attempt', 'error', 'log_id'],
  },
  messages: {
    assistant_id: 'must be a non-empty string of at most 255 characters',
    room_name: 'must be a non-empty string of at most 255 characters',
  },
});

export const END_CALL_DEFAULT_ATTEMPTS = 6;
export const END_CALL_DEFAULT_BACKOFF_MS = 2000;

/**
 * Options `end-call-webhook` jobs are added with. Six attempts with exponential backoff from 2 s
 * (Bull waits 2, 6, 14, 30, 62 s between them: about two minutes in all), configurable through
 * END_CALL_WEBHOOK_ATTEMPTS / END_CALL_WEBHOOK_BACKOFF_MS. Failed deliveries are kept a week.
 */
export function endCallWebhookJobOptions(config?: {
  get<T>(key: string): T | undefined;
}): JobOptions {
  const attempts = config?.get<number>('webhook.endCallAttempts') ?? END_CALL_DEFAULT_ATTEMPTS;
  const delay = config?.get<number>('webhook.endCallBackoffMs') ?? END_CALL_DEFAULT_BACKOFF_MS;
  return {
    attempts,
    backoff: { type: 'exponential', delay },
    timeout: 30_000,
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}

export const END_CALL_WEBHOOK_JOB_OPTIONS = endCallWebhookJobOptions();
