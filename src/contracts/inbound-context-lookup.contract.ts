/**
 * The public contract of the `inbound-context-lookup` queue, shared by the processor and the
 * producer client shipped to the call stack. No Nest or database imports: producers load it alone.
 */
import type { ErrorClass } from './error-class';
import {
  ERROR_CLASS_SCHEMA,
  JobContract,
  ROOM_NAME_SCHEMA,
  TRACEPARENT_SCHEMA,
  type Parsed,
} from './job-contract';
import { QUEUES } from './queues';

/** What a producer adds. One of `inbound_id` or `inbound_number` is required; `inbound_id` wins when both are sent. */
export interface InboundContextLookupJobData {
  /** Real-time room name of the call. */
  room_name: string;
  /** The inbound mapping, when the bridge already knows it. */
  inbound_id?: string;
  /** The dialled number, any formatting; matched on its digits against active mappings. */
  inbound_number?: string;
  /** Caller number as parsed by the telephony bridge. */
  caller_number?: string;
  /**
   * When the producer stops waiting (Unix epoch milliseconds). A job picked up after it is
   * reported as `expired` (logged, no webhook call) instead of calling the customer late, and the
   * webhook call is cut at it. The shipped client sets it from `waitMs`.
   */
  deadline_at?: number;
  /** W3C `traceparent` of the call's trace; the webhook request carries its trace id. */
  traceparent?: string;
}

export type InboundContextLookupStatus = 'success' | 'error' | 'skipped';

/** Why a lookup ended in `error`; the `error` text starts with it (`timeout: ...`). */
export type InboundContextLookupErrorKind =
  | 'mapping_not_found'
  | 'assistant_not_found'
  | 'strategy_not_found'
  | 'strategy_inactive'
  | 'missing_url'
  | 'secret_not_found'
  | 'timeout'
  | 'http_error'
  | 'invalid_json'
  | 'invalid_response'
  | 'too_large'
  | 'prompt_too_large'
  | 'blocked'
  | 'network_error'
  | 'expired';

/** The job's return value. `prompt` and `start_instruction` are always rendered, with or without context. */
export interface InboundContextLookupResult {
  status: InboundContextLookupStatus;
  assistant_id: string | null;
  assistant_name: string | null;
  /** The published version whose prompt was rendered (the mapping pins it); null for the working copy. */
  assistant_version: number | null;
  /**
   * With a traffic split on the mapping, the index in its `assistant_variants` this caller got
   * (the same caller always gets the same one while the weights stay); null without a split.
   */
  variant: number | null;
  inbound_id: string | null;
  strategy_id: string | null;
  /**
   * The `context` object the webhook returned on `success`; on `error`, the strategy's
   * `fallback_context` when it has one (`fallback_used: true`); otherwise null.
   */
  context: Record<string, unknown> | null;
  /** True when the lookup failed and the prompt was rendered with the strategy's `fallback_context`. */
  fallback_used: boolean;
  /**
   * `assistant_prompt` rendered: `{{context.<key>}}` from `context`, `{{call.<name>}}` from the call,
   * `| default: "text"` when a value is missing (empty text without a default).
   */
  prompt: string | null;
  /** `assistant_start_instruction`, rendered the same way; null when the assistant has none. */
  start_instruction: string | null;
  /** Webhook round trip in ms; 0 when no request was made. */
  latency_ms: number;
  /** `<kind>: <detail>` when `status` is `error`, else null. */
  error: string | null;
  /** The class of `error` (`timeout`, `auth`, `config`, ...); null when there is none. */
  error_class: ErrorClass | null;
  /** The `inbound_context_lookup` activity-log entry; null when none was written (skipped, unknown mapping). */
  log_id: string | null;
  /**
   * What the number's inbound policy decided; null when its mapping has none. `reject` (and every
   * `denied`): `status: "success"`, `prompt: null`, the message to play before hanging up.
   */
  policy?: LookupPolicyDecision | null;
}

/** A lookup's policy decision. */
export interface LookupPolicyDecision {
  outcome: 'open' | 'closed' | 'denied' | 'overflow';
  action: 'continue' | 'assistant' | 'reject';
  message: string | null;
  /** ISO 8601 with the number's offset; null when open, denied, full or never open again. */
  next_open_at: string | null;
}

const nullable = (type: string) => ({ type: [type, 'null'] });

export const inboundContextLookupContract = new JobContract<
  InboundContextLookupJobData,
  InboundContextLookupResult
>({
  queue: QUEUES.INBOUND_CONTEXT_LOOKUP,
  version: 1,
  description:
    "Resolves an inbound call's mapping, calls its context strategy and returns the rendered prompt.",
  data: {
    type: 'object',
    properties: {
      room_name: ROOM_NAME_SCHEMA,
      inbound_id: {
        type: 'string',
        pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
        description: 'The inbound mapping; wins over inbound_number when both are sent.',
      },
      inbound_number: {
        type: 'string',
        maxLength: 40,
        pattern: '^(?:\\D*\\d){5}',
        description: 'The dialled number, any formatting; matched on its digits.',
      },
      caller_number: { type: 'string', maxLength: 64 },
      deadline_at: {
        type: 'number',
        exclusiveMinimum: 0,
        description: 'When the producer stops waiting (Unix epoch ms).',
      },
      traceparent: TRACEPARENT_SCHEMA,
    },
    required: ['room_name'],
    anyOf: [{ required: ['inbound_id'] }, { required: ['inbound_number'] }],
  },
  result: {
    type: 'object',
    properties: {
      status: { enum: ['success', 'error', 'skipped'] },
      assistant_id: nullable('string'),
      assistant_name: nullable('string'),
      assistant_version: { ...nullable('integer'), minimum: 1 },
      variant: { ...nullable('integer'), minimum: 0 },
      inbound_id: nullable('string'),
      strategy_id: nullable('string'),
      context: nullable('object'),
      fallback_used: { type: 'boolean' },
      prompt: nullable('string'),
      start_instruction: nullable('string'),
      latency_ms: { type: 'number', minimum: 0 },
      error: nullable('string'),
      error_class: ERROR_CLASS_SCHEMA,
      log_id: nullable('string'),
      policy: {
        type: ['object', 'null'],
        properties: {
          outcome: { enum: ['open', 'closed', 'denied', 'overflow'] },
          action: { enum: ['continue', 'assistant', 'reject'] },
          message: nullable('string'),
          next_open_at: nullable('string'),
        },
        required: ['outcome', 'action', 'message', 'next_open_at'],
      },
    },
    required: [
      'status',
      'assistant_id',
      'assistant_name',
      'assistant_version',
      'variant',
      'inbound_id',
      'strategy_id',
      'context',
      'fallback_used',
      'prompt',
      'start_instruction',
      'latency_ms',
      'error',
      'error_class',
      'log_id',
    ],
  },
  messages: {
    room_name: 'must be a non-empty string of at most 255 characters',
    inbound_id: 'must be a UUID string',
    inbound_number: 'must be a string with at least 5 digits',
    caller_number: 'must be a string of at most 64 characters',
    deadline_at: 'must be a Unix time in milliseconds',
    traceparent: 'must be a string (a W3C traceparent)',
  },
});

export type ParsedJobData = Parsed<InboundContextLookupJobData>;

/** Checks job data from an untrusted producer; the processor fails a malformed job at once with this reason. */
export function parseLookupJobData(raw: unknown): ParsedJobData {
  return inboundContextLookupContract.parse(raw);
}
