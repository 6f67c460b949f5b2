/**
 * The public contract of the `call-ended` queue: a call stack says a room's call is over, so the
 * inbound number's concurrency slot it held is free again. No Nest or database imports.
 */
import { JobContract, ROOM_NAME_SCHEMA } from './job-contract';
import { QUEUES } from './queues';

/** Data of a `call-ended` job, as the call stack sends it. */
export interface CallEndedJobData {
  room_name: string;
  /** The dialled number, when the room's own record of its slot may be gone. */
  inbound_number?: string;
}

/** Return value of a `call-ended` job. */
export interface CallEndedResult {
  /** Whether the room held a slot, now free. */
  released: boolean;
}

export const callEndedContract = new JobContract<CallEndedJobData, CallEndedResult>({
  queue: QUEUES.CALL_ENDED,
  version: 1,
  description:
    "Says a room's call ended: the concurrency slot its inbound number's policy counted is free again.",
  data: {
    type: 'object',
    properties: {
      room_name: ROOM_NAME_SCHEMA,
      inbound_number: {
        type: 'string',
        maxLength: 40,
        pattern: '^(?:\\D*\\d){5}',
        description: 'The dialled number, any formatting; matched on its digits.',
      },
    },
    required: ['room_name'],
  },
  result: {
    type: 'object',
    properties: {
      released: { type: 'boolean', description: 'Whether the room held a slot, now free.' },
    },
    required: ['released'],
  },
  messages: {
    room_name: 'must be a non-empty string of at most 255 characters',
    inbound_number: 'must be a string with at least 5 digits',
  },
});
