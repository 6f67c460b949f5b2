import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import type { RecordedRequest } from '../../utils/customer-server';

/**
 * Per `webhook-id`: the requests the customer saw and the entries the log holds, where the two
 * counts differ (one line each; none when every request sent has its one entry). An entry without
 * a `webhook_id` counts under "undefined" unless `onlySent` says it sent nothing and is left out.
 */
export function unmatchedWebhookIds(
  requests: RecordedRequest[],
  entries: LogEntryDto[],
  { onlySent = false } = {},
): string[] {
  const count = (ids: string[]) => {
    const byId = new Map<string, number>();
    for (const id of ids) byId.set(id, (byId.get(id) ?? 0) + 1);
    return byId;
  };
  const sent = count(requests.map((r) => String(r.headers['webhook-id'])));
  const logged = count(
    entries
      .filter((e) => !onlySent || e.request_data.webhook_id)
      .map((e) => String(e.request_data.webhook_id)),
  );
  return [...new Set([...sent.keys(), ...logged.keys()])]
    .filter((id) => sent.get(id) !== logged.get(id))
    .map((id) => `${id}: ${sent.get(id) ?? 0} requests, ${logged.get(id) ?? 0} entries`);
}
