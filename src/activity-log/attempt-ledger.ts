import { Injectable, Logger } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';
import { ActivityLogService, type ActivityLogInput } from './activity-log.service';
import {
  AttemptJournal,
  attemptKey,
  type JournaledAttempt,
  type JournalJob,
} from './attempt-journal';

/** The message of an entry whose attempt was sent (or about to be) when its worker stopped. */
export const OUTCOME_UNKNOWN_MESSAGE = 'outcome unknown: the worker stopped';

/** Writes an entry: its id, or null when it was not written (now). */
export type EntryWriter = (entry: ActivityLogInput) => Promise<string | null>;

/** An attempt journaled and not yet recorded. */
export interface OpenAttempt {
  job: JournalJob;
  attempt: number;
  /** The `attempt_key` its entry carries. */
  key: string;
}

/** The entry of an attempt whose outcome was lost: what was sent, and that nobody saw the answer. */
export function outcomeUnknown(entry: ActivityLogInput): ActivityLogInput {
  return {
    ...entry,
    status: 'error',
    error_class: 'internal',
    message: OUTCOME_UNKNOWN_MESSAGE,
    latency_ms: 0,
    response_data: { ...entry.response_data, status_code: null, body: null, error: 'unknown' },
  };
}

/**
 * Exactly one activity-log entry per request a job sent, whatever happens to the worker: each
 * attempt is journaled before it is sent (`begin`) and its entry carries the attempt's key
 * (`record`), unique in the log. A job redelivered after its worker died writes the entry of
 * every attempt an earlier run journaled but did not record: `error`, class `internal`, "outcome
 * unknown"; an attempt whose entry was written after all is left as it is. A run learns of earlier
 * runs from its own `begin` (the attempt's number: a first run reads nothing back); a run that may
 * end without sending calls `recoverLost` before it ends, which reads only if its `begin` did not.
 *
 * A run is told by its `JournalJob` object: each run of a job makes its own (the processors do),
 * so a redelivery starts afresh, and the ledger keeps no state once the run's object is gone.
 */
@Injectable()
export class AttemptLedger {
  private readonly logger = new Logger(AttemptLedger.name);
  /** The runs whose earlier runs' lost attempts are accounted for: recorded, or found to be none. */
  private readonly accounted = new WeakSet<JournalJob>();

  constructor(
    private readonly journal: AttemptJournal,
    private readonly activityLog: ActivityLogService,
  ) {}

  /**
   * Writes the entries of the job's earlier attempts whose outcome was lost, unless this run
   * (`job`) already did or its `begin` found there were none; how many. `write` is how the job
   * writes its entries (the activity log unless it says otherwise).
   */
  recoverLost(job: JournalJob, write?: EntryWriter): Promise<number> {
    return this.recoverOnce(job, write, Infinity);
  }

  /**
   * Journals the attempt that is about to send `entry` (the entry its outcome will complete). Its
   * number says whether an earlier run journaled any: only then (the job redelivered after its
   * worker stopped), or when the journal failed, are the earlier attempts read, and those lost
   * written with `write` before this one is sent. Null when the journal cannot be written (Redis
   * unreachable): the request is sent anyway and recorded as usual, only a crash before its entry
   * would then go unrecorded (the service log says so).
   */
  async begin(
    job: JournalJob,
    entry: ActivityLogInput,
    write?: EntryWriter,
  ): Promise<OpenAttempt | null> {
    let open: OpenAttempt | null = null;
    try {
      const attempt = await this.journal.begin(job, outcomeUnknown(entry));
      open = { job, attempt, key: attemptKey(job, attempt) };
    } catch (error) {
      this.journalFailed(job, error, 'attempt not journaled; sending it anyway');
    }
    if (open?.attempt === 1) this.accounted.add(job);
    else await this.recoverOnce(job, write, open?.attempt ?? Infinity);
    return open;
  }

  /**
   * Writes the attempt's entry (once: see `attempt_key`) with `write`, the activity log by default;
   * its journal record goes once it is in. The job does not wait for that: an attempt left open
   * (the process stopped first) is only read by a redelivery of the job, which finds its entry
   * already written under the same key and leaves it.
   */
  async record(
    entry: ActivityLogInput,
    open: OpenAttempt | null,
    write: EntryWriter = (e) => this.activityLog.record(e),
  ): Promise<string | null> {
    const id = await write(open ? { ...entry, attempt_key: open.key } : entry);
    if (id && open)
      void this.journal
        .settle(open.job, open.attempt)
        .catch((error: unknown) => this.journalFailed(open.job, error, 'attempt not settled'));
    return id;
  }

  /** `recoverLost` once per run; `before`: only attempts numbered below it (the run's own is not lost). */
  private async recoverOnce(
    job: JournalJob,
    write: EntryWriter | undefined,
    before: number,
  ): Promise<number> {
    if (this.accounted.has(job)) return 0;
    this.accounted.add(job);
    let lost: JournaledAttempt[];
    try {
      lost = (await this.journal.pending(job)).filter(({ attempt }) => attempt < before);
    } catch (error) {
      this.journalFailed(job, error, 'could not read the attempts of an earlier run');
      return 0;
    }
    for (const { attempt, entry } of lost) {
      const open = { job, attempt, key: attemptKey(job, attempt) };
      await this.record(entry, open, write);
    }
    if (lost.length)
      this.logger.warn(
        { queue: job.queue, job_id: String(job.id), attempts: lost.map((a) => a.attempt) },
        'job redelivered: attempts of an earlier run recorded with an unknown outcome',
      );
    return lost.length;
  }

  private journalFailed(job: JournalJob, error: unknown, what: string): void {
    this.logger.warn(
      { err: loggableError(error), queue: job.queue, job_id: String(job.id) },
      `attempt journal: ${what}`,
    );
  }
}
