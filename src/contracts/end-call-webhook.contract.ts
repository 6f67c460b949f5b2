/**
 * The public contract of the `end-call-webhook` queue, shared by the processor and the producer
 * client. No Nest or database imports: producers load it alone.
 */
import type { ErrorClass } from './error-class';
import {
  ASSISTANT_VERSION_SCHEMA,
  ERROR_CLASS_SCHEMA,
  JobContract,
  ROOM_NAME_SCHEMA,
  TRACEPARENT_SCHEMA,
} from './job-contract';
import { QUEUES } from './queues';

/** Data of an `end-call-webhook` job, as the call stack sends it. */
export interface EndCallJobData {
  assistant_id: string;
  room_name: string;
  /** The call-ended payload, POSTed as is. */
  payload: unknown;
  /**
   * The published version whose `assistant_end_call_url` receives the payload (null: the working
   * copy). Left out: the version the room's inbound lookup resolved, else the working copy.
   */
  assistant_version?: number | null;
  /** Set by the service on the attempts it schedules itself; ignored on a producer's job. */
  delivery?: EndCallDelivery;
  /**
   * W3C `traceparent` of the call's trace; every attempt's request carries its trace id (the
   * service's own retries keep the trace, started here when none came).
   */
  traceparent?: string;
}

/** Which attempt of which delivery a job is: the service's own retries carry it. */
export interface EndCallDelivery {
  /** 2 for the first retry, and so on. */
  attempt: number;
  /** The delivery's Standard Webhooks `webhook-id`, the same on every attempt. */
  webhook_id: string;
}

/**
 * Return value of an `end-call-webhook` job: one attempt. `retry` means this attempt failed and
 * the service has scheduled the next one as a new job on the same queue.
 */
export interface EndCallOutcome {
  status: 'delivered' | 'skipped' | 'retry' | 'failed';
  status_code: number | null;
  attempt: number;
  error: string | null;
  /** The class of `error` (`timeout`, `http_5xx`, `config`, ...); null when there is none. */
  error_class: ErrorClass | null;
  log_id: string | null;
  /** The version whose end-call URL was used; null for the working copy. */
  assistant_version: number | null;
}

export const endCallWebhookContract = new JobContract<EndCallJobData, EndCallOutcome>({
  queue: QUEUES.END_CALL_WEBHOOK,
  version: 1,
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
      room_name: ROOM_NAME_SCHEMA,
      payload: { description: 'The call-ended payload, POSTed as is.' },
      assistant_version: ASSISTANT_VERSION_SCHEMA,
      delivery: {
        type: 'object',
        description:
          'Set by the service on the retries it schedules itself (which attempt of which delivery). Internal: ignored on any job the service did not schedule, so a producer cannot set the webhook-id or the attempt.',
        properties: {
          attempt: { type: 'integer', minimum: 2, maximum: 100 },
          webhook_id: { type: 'string', minLength: 1, maxLength: 100 },
        },
        required: ['attempt', 'webhook_id'],
        additionalProperties: false,
      },
      traceparent: TRACEPARENT_SCHEMA,
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
      error_class: ERROR_CLASS_SCHEMA,
      log_id: { type: ['string', 'null'] },
      assistant_version: { type: ['integer', 'null'], minimum: 1 },
    },
    required: [
      'status',
      'status_code',
      'attempt',
      'error',
      'error_class',
      'log_id',
      'assistant_version',
    ],
  },
  messages: {
    assistant_id: 'must be a non-empty string of at most 255 characters',
    room_name: 'must be a non-empty string of at most 255 characters',
    traceparent: 'must be a string (a W3C traceparent)',
    delivery: 'is set by the service on its own retries: {attempt (2-100), webhook_id}',
    assistant_version:
      'must be a published version number (an integer from 1) or null for the working copy',
  },
  nullValued: ['assistant_version'],
});
