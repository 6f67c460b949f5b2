import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ActivityLogService, type ActivityLogInput } from '../../activity-log/activity-log.service';
import { loggableError } from '../../common/errors/loggable-error';
import { MetricsService } from '../../metrics/metrics.service';
import { EntrySpool, entryOf, spooled, type SpooledEntry } from './entry-spool';

/** How often each process looks for kept entries to write. */
export const SPOOL_DRAIN_INTERVAL_MS = 1000;
/** Entries written per round (each is checked, then inserted). */
const DRAIN_BATCH = 100;
/**
 * A drainer holds the lock this long, renewed every round (a dead one's lock expires). A slow
 * round that outlives it lets a second drainer in, which is safe: see `EntrySpool`.
 */
const DRAIN_LOCK_MS = 5_000;
/** An entry the database refuses this many times while it answers is given up (and logged). */
export const MAX_SPOOL_ATTEMPTS = 100;

/**
 * The lookup's activity-log writes. An entry the database cannot take (MySQL down) is kept in the
 * spool (Redis) and written by the drain once the database answers again, with its original
 * timestamp: none lost, and none twice, since the drain skips an entry already in the log (the
 * same `attempt_key` when a journaled attempt made it, else the same owner, room, type, timestamp
 * and trace id: a drainer that died between the insert and the spool's trim leaves exactly that)
 * before inserting it. A kept entry keeps its `attempt_key`, so its late write is write-once too.
 */
@Injectable()
export class LookupLogWriter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LookupLogWriter.name);
  private readonly token = randomUUID();
  private timer?: NodeJS.Timeout;
  private draining?: Promise<number>;
  /** The drain has failed since it last succeeded (the database is still down). */
  private waiting = false;
  /** A drain is asked for while one runs: it runs again once that one is done. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly spool: EntrySpool,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.drain(), SPOOL_DRAIN_INTERVAL_MS);
    this.timer.unref();
    this.metrics?.setPendingLogEntries(() => this.spool.pending());
  }

  /** Stops the periodic drain; resolves once the drain in flight is done. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  /** The entry's id once written; null when it was kept for later (or lost: Redis down too, logged). */
  async write(input: ActivityLogInput): Promise<string | null> {
    const entry = { ...input, timestamp: input.timestamp ?? new Date() };
    const id = await this.activityLog.record(entry);
    if (id === null) await this.keep(entry, true);
    return id;
  }

  /** Keeps `entry` in the spool; whether it is kept (if not, logged as lost when `last`). */
  private async keep(
    entry: ActivityLogInput & { timestamp: Date },
    last: boolean,
  ): Promise<boolean> {
    try {
      await this.spool.keep(spooled(entry));
      return true;
    } catch (error) {
      if (last)
        this.logger.error(
          { err: loggableError(error), room_name: entry.room_name },
          'lookup log entry lost: neither the database nor Redis took it',
        );
      return false;
    }
  }

  /**
   * Writes what the spool keeps (one drainer at a time); resolves to how many entries it wrote.
   * Asked for while a drain runs, it runs again after it (entries kept meanwhile are written).
   */
  drain(): Promise<number> {
    if (this.draining) this.again = true;
    this.draining ??= this.drainLocked().finally(() => {
      this.draining = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.drain();
      }
    });
    return this.draining;
  }

  private async drainLocked(): Promise<number> {
    try {
      if (!(await this.spool.pending())) return 0;
      if (!(await this.spool.lock(this.token, DRAIN_LOCK_MS))) return 0;
    } catch {
      return 0;
    }
    let written = 0;
    try {
      for (;;) {
        const items = await this.spool.head(DRAIN_BATCH);
        if (!items.length) break;
        const { done, refused } = await this.writeAll(items);
        written += done;
        await this.spool.drop(done, items[0]);
        if (refused) await this.spool.replaceHead({ ...refused, attempts: refused.attempts + 1 });
        if (refused || items.length < DRAIN_BATCH) break;
        // A long drain renews its lock round by round; one taken over meanwhile stops here.
        if (!(await this.spool.lock(this.token, DRAIN_LOCK_MS))) break;
      }
    } catch (error) {
      // Once until it next succeeds, not at every try.
      if (!this.waiting)
        this.logger.warn(
          { err: loggableError(error) },
          'could not write kept lookup log entries yet; trying again',
        );
      this.waiting = true;
      return written;
    } finally {
      await this.spool.unlock(this.token).catch(() => undefined);
    }
    this.waiting = false;
    if (written) this.logger.log({ written }, 'wrote kept lookup log entries');
    return written;
  }

  /**
   * Writes `items` together (they share the log's batches): how many, from the first, are done
   * (written, already there, or given up after `MAX_SPOOL_ATTEMPTS`), and the first refused one.
   * Entries after a refused one may be written already: written again, each is found and stored
   * once. A database that does not answer throws from a check (before anything is inserted, or
   * when an entry is refused), so an outage is not counted against an entry.
   */
  private async writeAll(items: SpooledEntry[]): Promise<{ done: number; refused?: SpooledEntry }> {
    const stored = await this.writeEach(items);
    let done = 0;
    for (const [i, item] of items.entries()) {
      if (!(await this.isDone(item, stored[i]))) return { done, refused: item };
      done += 1;
    }
    return { done };
  }

  /**
   * Writes `items` together; whether each is stored now. Still down since the last round failed,
   * the database's first check throws before any entry is tried again.
   */
  private async writeEach(items: SpooledEntry[]): Promise<boolean[]> {
    if (this.waiting && items.length) await this.alreadyWritten(entryOf(items[0]));
    return Promise.all(items.map((item) => this.writeOnce(entryOf(item))));
  }

  /**
   * Whether a kept entry is done: `stored`, already in the log, or given up (logged)
   * after `MAX_SPOOL_ATTEMPTS`; false when the database, answering, refused it.
   */
  private async isDone(item: SpooledEntry, stored: boolean): Promise<boolean> {
    if (stored || (await this.alreadyWritten(entryOf(item)))) return true;
    if (item.attempts + 1 < MAX_SPOOL_ATTEMPTS) return false;
    this.logger.error(
      { room_name: item.entry.room_name },
      'lookup log entry given up after retries',
    );
    return true;
  }

  /** Writes a kept entry unless it is there already; whether it is stored now. */
  private async writeOnce(entry: ActivityLogInput): Promise<boolean> {
    if (await this.alreadyWritten(entry)) return true;
    return (await this.activityLog.record(entry)) !== null;
  }

  /** Whether the log holds this entry already (the activity-log module's read). */
  private alreadyWritten(entry: ActivityLogInput): Promise<boolean> {
    return this.activityLog.hasEntry(entry);
  }
}
