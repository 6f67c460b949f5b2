/**
 * The public contract of the `tool-call` queue, shared by the processor and the producer client.
 * No Nest or database imports: producers load it alone.
 */
import type { ErrorClass } from './error-class';
import {
  ASSISTANT_VERSION_SCHEMA,
  ERROR_CLASS_SCHEMA,
  JobContract,
  TRACEPARENT_SCHEMA,
} from './job-contract';
import { QUEUES } from './queues';

/** Data of a `tool-call` job, as the call stack sends it. */
export interface ToolCallJobData {
  tool_id: string;
  assistant_id: string;
  room_name: string;
  /** The language model's arguments: an object, or the JSON text of one. */
  arguments?: unknown;
  /**
   * The language model's id of this tool call. Sent as `X-Call-Tool-Call-Id`; the request's
   * `webhook-id` is derived from (assistant, room, tool_call_id), so a repeated call is recognisable.
   */
  tool_call_id?: string;
  /** W3C `traceparent` of the call's trace; the webhook request carries its trace id. */
  traceparent?: string;
  /**
   * The published version whose tool runs (null: the working copy). Left out: the version the
   * room's inbound lookup resolved, else the working copy.
   */
  assistant_version?: number | null;
}

/** Return value of a `tool-call` job. */
export interface ToolCallResult {
  /** `cancelled`: a `tool-call-cancel` job withdrew the call before it was sent (nothing was). */
  status: 'success' | 'error' | 'cancelled';
  /** What the language model gets back: the static value, or the webhook's answer (parsed JSON or text). */
  result: unknown;
  latency_ms: number;
  /** Why the call failed, worded for the language model; null on success. */
  error: string | null;
  /** The class of `error` (`timeout`, `auth`, `config`, ...); null on success. */
  error_class: ErrorClass | null;
  /** The version whose tool definition ran; null for the working copy. */
  assistant_version: number | null;
  /**
   * `irreversible` tools only: true when an identical call (same room, tool and `dedupe_key`
   * values) sent the request and this result is its result; false on the call that sent it.
   */
  deduplicated?: boolean;
  /** With `deduplicated: true`, the activity-log entry of the call that sent the request. */
  first_log_id?: string | null;
}

const id = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description,
});

export const toolCallContract = new JobContract<ToolCallJobData, ToolCallResult>({
  queue: QUEUES.TOOL_CALL,
  version: 1,
  description:
    "Runs one of an assistant's tools for the language model and returns what the model gets back.",
  data: {
    type: 'object',
    properties: {
      tool_id: id('The tool to run; it must be attached to the assistant.'),
      assistant_id: id('The assistant of the call.'),
      room_name: id('Real-time room name of the call.'),
      arguments: {
        description:
          "The language model's arguments: an object, or the JSON text of one; checked against the tool's parameters.",
      },
      tool_call_id: id(
        "The language model's id of this tool call; a repeat with the same id gets the same webhook-id.",
      ),
      traceparent: TRACEPARENT_SCHEMA,
      assistant_version: ASSISTANT_VERSION_SCHEMA,
    },
    required: ['tool_id', 'assistant_id', 'room_name'],
  },
  result: {
    type: 'object',
    properties: {
      status: { enum: ['success', 'error', 'cancelled'] },
      result: { description: "The static value, or the webhook's answer (parsed JSON or text)." },
      latency_ms: { type: 'number', minimum: 0 },
      error: { type: ['string', 'null'] },
      error_class: ERROR_CLASS_SCHEMA,
      assistant_version: { type: ['integer', 'null'], minimum: 1 },
      deduplicated: {
        type: 'boolean',
        description:
          "irreversible tools: true when this is the result of an identical call's request, false on the call that sent it.",
      },
      first_log_id: {
        type: ['string', 'null'],
        description: 'With deduplicated: true, the activity-log entry of the call that sent it.',
      },
    },
    required: ['status', 'result', 'latency_ms', 'error', 'error_class', 'assistant_version'],
  },
  messages: {
    tool_id: 'must be a non-empty string of at most 255 characters',
    assistant_id: 'must be a non-empty string of at most 255 characters',
    room_name: 'must be a non-empty string of at most 255 characters',
    tool_call_id: 'must be a non-empty string of at most 255 characters',
    traceparent: 'must be a string (a W3C traceparent)',
    assistant_version:
      'must be a published version number (an integer from 1) or null for the working copy',
  },
  nullValued: ['assistant_version'],
});
