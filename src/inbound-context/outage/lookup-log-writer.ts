import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ActivityLogService, type ActivityLogInput } from '../../activity-log/activity-log.service';
import { loggableError } from '../../common/errors/loggable-error';
import type { AppConfig } from '../../config/app-config';
import { MetricsService } from '../../metrics/metrics.service';
import {
  EntrySpool,
  entryOf,
  heldEntry,
  spooled,
  type HeldEntry,
  type SpooledEntry,
} from './entry-spool';
import { HeldCommitTurns } from './held-commit-turns';

/** How often each process looks for kept (and held) entries to write. */
export const SPOOL_DRAIN_INTERVAL_MS = 1000;
/**
 * A held entry (`LOOKUP_LOG_WRITE=behind`) is its own process's to commit for this long; after it,
 * any drainer writes it (its process stopped, or the database was down). Written by both, it is
 * stored once: under its id.
 */
export const HELD_GRACE_MS = 2000;
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
 *
 * With `LOOKUP_LOG_WRITE=behind` the lookup answers before the commit: its entry takes an id
 * reserved in the database beforehand (no round trip for most entries: ids come in blocks), is
 * held in Redis under it (one command), and the lookup answers with that id while this process
 * commits it through the log's group commit, then releases it (batched). An entry still held after
 * `HELD_GRACE_MS` (its process stopped, or the database was down) is written by any drainer. An
 * entry with its id is stored under it or found there, so neither looks for it first.
 */
@Injectable()
export class LookupLogWriter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LookupLogWriter.name);
  private readonly token = randomUUID();
  private timer?: NodeJS.Timeout;
  private draining?: Promise<number>;
  /** The drain has failed since it last succeeded (the database is still down). */
  private waiting = false;
  /** `LOOKUP_LOG_WRITE=behind`. */
  private readonly behind: boolean;
  /** A drain is asked for while one runs: it runs again once that one is done. */
  private again = false;
  private stopped = false;
  /** Commits of held entries in flight, by entry (a drain of this process leaves those entries). */
  private readonly commits = new Map<string, Promise<void>>();
  private readonly turns: HeldCommitTurns;

  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly spool: EntrySpool,
    config: ConfigService<AppConfig, true>,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.behind = config.get('logs.lookupWrite', { infer: true }) === 'behind';
    this.turns = new HeldCommitTurns(spool);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.drain(), SPOOL_DRAIN_INTERVAL_MS);
    this.timer.unref();
    this.metrics?.setPendingLogEntries(() => this.spool.pending());
  }

  /** Stops the periodic drain; resolves once the drain and the commits in flight are done. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all([this.draining, ...this.commits.values()]);
    await this.turns.released();
  }

  /** The entry's id once written; null when it was kept for later (or lost: Redis down too, logged). */
  async write(input: ActivityLogInput): Promise<string | null> {
    const entry = { ...input, timestamp: input.timestamp ?? new Date() };
    if (this.behind) return this.writeBehind(entry);
    const id = await this.activityLog.record(entry);
    if (id === null) await this.keep(entry, true);
    return id;
  }

  /** Holds the entry under a reserved id and answers with it; the commit follows. */
  private async writeBehind(entry: ActivityLogInput & { timestamp: Date }): Promise<string | null> {
    const item = heldEntry({ ...entry, log_id: await this.activityLog.reserveId() });
    try {
      await this.spool.hold(item);
    } catch {
      // Redis cannot hold it: written now, under its id.
      return this.activityLog.record(entryOf(item));
    }
    this.commits.set(
      item.id,
      this.commitHeld(item).finally(() => this.commits.delete(item.id)),
    );
    return item.entry.log_id ?? null;
  }

  /**
   * Commits a held entry and lets go of it; one not committed stays held for a drain. It starts
   * `HELD_COMMIT_DELAY_MS` after the answer, with the entries held meanwhile (one batch), so the
   * commit's work does not compete with the answer's.
   */
  private async commitHeld(item: HeldEntry): Promise<void> {
    await this.turns.next();
    try {
      if (await this.writeOnce(entryOf(item))) this.turns.release(item.id);
    } catch {
      // The database does not answer (logged by the log's writer): a drain writes it later.
    }
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
   * Writes what the spool keeps, and the entries held longer than `graceMs` (one drainer at a
   * time); resolves to how many entries it wrote. Asked for while a drain runs, it runs again
   * after it (entries kept meanwhile are written).
   */
  drain(graceMs = HELD_GRACE_MS): Promise<number> {
    if (this.draining) this.again = true;
    this.draining ??= this.drainLocked(graceMs).finally(() => {
      this.draining = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.drain();
      }
    });
    return this.draining;
  }

  private async drainLocked(graceMs: number): Promise<number> {
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
      written += await this.writeHeld(Date.now() - graceMs);
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
   * Writes the entries held since before `before` that this process is not committing, page by
   * page, and lets go of each done (as `writeAll`); how many were. One the database refuses while
   * it answers stays held, its attempts counted.
   */
  private async writeHeld(before: number): Promise<number> {
    let written = 0;
    let cursor = '0';
    do {
      const page = await this.spool.held(cursor);
      cursor = page.cursor;
      const items = page.items.filter((i) => i.held_at <= before && !this.commits.has(i.id));
      const stored = await this.writeEach(items);
      const done: string[] = [];
      for (const [i, item] of items.entries()) {
        if (await this.isDone(item, stored[i])) done.push(item.id);
        else await this.spool.rehold({ ...item, attempts: item.attempts + 1 });
      }
      await this.spool.release(done);
      written += done.length;
    } while (cursor !== '0');
    return written;
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
   * Whether a kept or held entry is done: `stored`, already in the log, or given up (logged)
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
    if (!entry.log_id && (await this.alreadyWritten(entry))) return true;
    return (await this.activityLog.record(entry)) !== null;
  }

  /** Whether the log holds this entry already (the activity-log module's read). */
  private alreadyWritten(entry: ActivityLogInput): Promise<boolean> {
    return this.activityLog.hasEntry(entry);
  }
}
