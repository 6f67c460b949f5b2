import type { SentRequestEntry } from '../activity-log/activity-log.service';
import { AppException, AppErrorCode } from '../common/errors/app.exception';

/** What a replay sends: the original body and `webhook-id`, to the resource's current URL. */
export interface ReplaySource {
  entry: SentRequestEntry;
  /** The JSON text the original request sent. */
  body: string;
  webhookId: string;
}

const refuse = (message: string) =>
  new AppException(AppErrorCode.VALIDATION, message, {
    errors: [{ field: 'log_id', message }],
  });

/**
 * Whether an entry can be sent again, and what with. Only requests the service sent on a
 * customer's behalf to a webhook of theirs that does not answer a live call: end-call deliveries and
 * webhook tool calls. A lookup answered a call that is over; a static tool sent nothing.
 */
export function replaySource(entry: SentRequestEntry): ReplaySource {
  const id = entry.log_id;
  if (entry.log_type === 'inbound_context_lookup')
    throw refuse(
      `Entry ${id} is an inbound context lookup: lookups answer a live call and cannot be replayed`,
    );
  const data = entry.request_data ?? {};
  if (entry.log_type === 'tool_call' && data.execution_type !== 'webhook')
    throw refuse(`Entry ${id} is not a webhook tool call: only webhook tool calls can be replayed`);
  const webhookId = data.webhook_id;
  if (
    entry.request_body === null ||
    entry.request_body === undefined ||
    typeof webhookId !== 'string'
  )
    throw refuse(
      `Entry ${id} kept no request to send again (nothing was sent, the body was larger than 1 MB, or the entry predates replays)`,
    );
  return { entry, body: entry.request_body, webhookId };
}
