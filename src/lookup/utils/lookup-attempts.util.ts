import type { ActivityLogInput } from '../../activity-log/activity-log.service';
import { jobDigest, type JournalJob } from '../../activity-log/attempt-journal';
import {
  OUTCOME_UNKNOWN_MESSAGE,
  type AttemptLedger,
  type EntryWriter,
  type OpenAttempt,
} from '../../activity-log/attempt-ledger';
import type { StrategyWebhookOutcome } from '../strategy-webhook';
import { toLookupLogEntry } from './lookup-outcome.util';
import type { StrategyRequest } from './lookup-plan.util';

/** What a lookup's entry is journaled with; `outcomeUnknown` rewrites it if it is ever written. */
const OUTCOME_PENDING: StrategyWebhookOutcome = {
  ok: false,
  kind: 'network_error',
  message: OUTCOME_UNKNOWN_MESSAGE,
  latency_ms: 0,
};

/**
 * The strategy requests of one lookup job, journaled before they are sent (`AttemptLedger`): a
 * job redelivered after its worker stopped first records the request an earlier run sent without
 * an entry ("outcome unknown"), then sends again with the same `webhook-id` (derived from the
 * job). Made by the queue's consumer only: a lookup run any other way journals nothing.
 */
export class LookupAttempts {
  /** Standard Webhooks `webhook-id`: the same on every run of the job. */
  readonly webhookId: string;

  constructor(
    private readonly ledger: AttemptLedger,
    private readonly job: JournalJob,
  ) {
    this.webhookId = `msg_${jobDigest(job)}`;
  }

  /**
   * Writes (with `write`) the entries of earlier runs' requests whose outcome was lost, unless
   * this run's `begin` already did or found there were none (see `AttemptLedger`).
   */
  recoverLost(write: EntryWriter): Promise<number> {
    return this.ledger.recoverLost(this.job, write);
  }

  /**
   * Journals the request about to be sent; null when the journal could not take it. A first run
   * reads nothing back; a redelivered one writes (with `write`) the earlier runs' requests left
   * without an entry before this one is sent (see `AttemptLedger.begin`).
   */
  begin(
    route: Parameters<typeof toLookupLogEntry>[0],
    request: StrategyRequest,
    write: EntryWriter,
  ): Promise<OpenAttempt | null> {
    const pending = { outcome: OUTCOME_PENDING, fallback_used: false };
    return this.ledger.begin(
      this.job,
      this.stamp(toLookupLogEntry(route, request, pending)),
      write,
    );
  }

  /** Writes the attempt's entry (carrying its `attempt_key`) with `write`. */
  record(
    entry: ActivityLogInput,
    open: OpenAttempt | null,
    write: EntryWriter,
  ): Promise<string | null> {
    return this.ledger.record(this.stamp(entry), open, write);
  }

  /** The entry with the request's `webhook-id` in its request data. */
  private stamp(entry: ActivityLogInput): ActivityLogInput {
    return { ...entry, request_data: { ...entry.request_data, webhook_id: this.webhookId } };
  }
}
