/**
 * The public contract of the `tool-call-cancel` queue: the call stack withdraws a tool call (the
 * caller interrupted, the model moved on). No Nest or database imports: producers load it alone.
 */
import { JobContract, ROOM_NAME_SCHEMA } from './job-contract';
import { QUEUES } from './queues';

/** Data of a `tool-call-cancel` job, as the call stack sends it. */
export interface ToolCallCancelJobData {
  room_name: string;
  /** The `tool_call_id` of the `tool-call` job to withdraw. */
  tool_call_id: string;
  /** Why, as the tool's cancellation notice tells it. */
  reason?: string;
}

/**
 * `cancelled_before_send`: the call's job had not sent its request and will not;
 * `cancelled_after_send`: it was sent (a tool with `notify_cancel` is told once);
 * `not_found`: no job of that call has started; remembered, so one that comes later is cancelled.
 */
export type ToolCallCancelStatus = 'cancelled_before_send' | 'cancelled_after_send' | 'not_found';

/**
 * Return value of a `tool-call-cancel` job. Data that does not match the contract (no `room_name`
 * or `tool_call_id`) cancels nothing and completes `{status: "error", error}`, naming the field.
 */
export type ToolCallCancelResult =
  | { status: ToolCallCancelStatus }
  | { status: 'error'; error: string };

export const toolCallCancelContract = new JobContract<ToolCallCancelJobData, ToolCallCancelResult>(
  {
    queue: QUEUES.TOOL_CALL_CANCEL,
    version: 1,
    description:
      'Withdraws a tool call of a room: not sent when it has not been yet; its tool told when it was and asks to be.',
    data: {
      type: 'object',
      properties: {
        room_name: ROOM_NAME_SCHEMA,
        tool_call_id: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          pattern: '\\S',
          description: 'The tool_call_id of the tool-call job to withdraw.',
        },
        reason: {
          type: 'string',
          maxLength: 500,
          description: "Why, as the tool's cancellation notice tells it.",
        },
      },
      required: ['room_name', 'tool_call_id'],
    },
    result: {
      type: 'object',
      properties: {
        status: { enum: ['cancelled_before_send', 'cancelled_after_send', 'not_found', 'error'] },
        error: {
          type: 'string',
          description: 'With status "error": why the job cancelled nothing, naming the bad field.',
        },
      },
      required: ['status'],
    },
    messages: {
      room_name: 'must be a non-empty string of at most 255 characters',
      tool_call_id: 'must be a non-empty string of at most 255 characters',
      reason: 'must be a string of at most 500 characters',
    },
  },
);
