import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ActivityLogService, type ActivityLogInput } from '../../activity-log/activity-log.service';
import { loggableError } from '../../common/errors/loggable-error';
import { EntrySpool, entryOf, spooled, type SpooledEntry } from './entry-spool';

/** How often each process looks for kept entries to write. */
export const SPOOL_DRAIN_INTERVAL_MS = 1000;
/** Entries written per round (each is checked, then inserted). */
const DRAIN_BATCH = 100;
/** A drainer holds the lock this long at most (a dead one's lock expires). */
const DRAIN_LOCK_MS = 30_000;
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

  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly spool: EntrySpool,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.drain(), SPOOL_DRAIN_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.draining;
  }

  /** The entry's id once written; null when it was kept for later (or lost: Redis down too, logged). */
  async write(input: ActivityLogInput): Promise<string | null> {
    const entry = { ...input, timestamp: input.timestamp ?? new Date() };
    const id = await this.activityLog.record(entry);
    if (id !== null) return id;
    try {
      await this.spool.keep(spooled(entry));
    } catch (error) {
      this.logger.error(
        { err: loggableError(error), room_name: entry.room_name },
        'lookup log entry lost: neither the database nor Redis took it',
      );
    }
    return null;
  }

  /** Writes what the spool holds (one drainer at a time); resolves to how many entries it wrote. */
  drain(): Promise<number> {
    this.draining ??= this.drainLocked().finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async drainLocked(): Promise<number> {
    try {
      if (!(await this.spool.size())) return 0;
      if (!(await this.spool.lock(this.token, DRAIN_LOCK_MS))) return 0;
    } catch {
      return 0;
    }
    let written = 0;
    try {
      for (;;) {
        const items = await this.spool.head(DRAIN_BATCH);
        const { done, refused } = await this.writeAll(items);
        written += done;
        await this.spool.drop(done);
        if (refused) await this.spool.replaceHead({ ...refused, attempts: refused.attempts + 1 });
        if (refused || items.length < DRAIN_BATCH) break;
      }
    } catch (error) {
      // Once until it next succeeds, not once a second.
      if (!this.waiting)
        this.logger.warn(
          { err: loggableError(error) },
          'could not write kept lookup log entries yet; trying again every second',
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
   * Writes `items` in order until one is refused: how many are done (written, already there, or
   * given up after `MAX_SPOOL_ATTEMPTS`), and the refused one. A database that does not answer
   * throws from the check, before anything is inserted.
   */
  private async writeAll(items: SpooledEntry[]): Promise<{ done: number; refused?: SpooledEntry }> {
    let done = 0;
    for (const item of items) {
      const entry = entryOf(item);
      if (!(await this.alreadyWritten(entry)) && (await this.activityLog.record(entry)) === null) {
        if (item.attempts + 1 < MAX_SPOOL_ATTEMPTS) return { done, refused: item };
        this.logger.error(
          { room_name: entry.room_name },
          'lookup log entry given up after retries',
        );
      }
      done += 1;
    }
    return { done };
  }

  /** Whether the log holds this entry already (the activity-log module's read). */
  private alreadyWritten(entry: ActivityLogInput): Promise<boolean> {
    return this.activityLog.hasEntry(entry);
  }
}
