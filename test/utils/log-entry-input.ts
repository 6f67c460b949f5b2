import { randomUUID } from 'node:crypto';
import type { ActivityLogInput } from '../../src/activity-log/activity-log.service';

/** A successful lookup entry of `userId` in `room` (its own assistant id), with `over` applied. */
export function logEntryInput(
  userId: string,
  room: string,
  over: Partial<ActivityLogInput> = {},
): ActivityLogInput {
  return {
    user_id: userId,
    log_type: 'inbound_context_lookup',
    status: 'success',
    assistant_id: randomUUID(),
    room_name: room,
    message: `message of ${room}`,
    request_data: { room },
    response_data: { ok: true },
    latency_ms: 3,
    ...over,
  };
}
