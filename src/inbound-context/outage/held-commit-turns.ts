import type { EntrySpool } from './entry-spool';

/**
 * A held entry's commit starts this long after its answer, with the others held meanwhile: at
 * once, its work (building the row, the batch's round trip) would compete for the process and
 * the machine with the answer it follows. The wait sets the batch: under load, MySQL gets one
 * batch per process per wait, so the primary's statements per lookup stay low as workers are
 * added (20 ms against 5: 0.34 statements per lookup against 0.86 with one worker, 0.56 against
 * 1.31 with two; BENCHMARKS.md). The entry is held in Redis meanwhile, so the wait risks nothing.
 */
export const HELD_COMMIT_DELAY_MS = 20;

/**
 * The turns in which held entries (`LOOKUP_LOG_WRITE=behind`) are committed and let go of: the
 * commits of the entries held within `HELD_COMMIT_DELAY_MS` start together (the log's group
 * commit takes them as one batch), and the entries committed in one turn are let go of with one
 * command.
 */
export class HeldCommitTurns {
  private nextTurn?: Promise<void>;
  private toRelease: string[] = [];
  private releasing?: Promise<void>;

  constructor(private readonly spool: EntrySpool) {}

  /** Resolves `HELD_COMMIT_DELAY_MS` after the first entry held since the last turn. */
  next(): Promise<void> {
    this.nextTurn ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        this.nextTurn = undefined;
        resolve();
      }, HELD_COMMIT_DELAY_MS),
    );
    return this.nextTurn;
  }

  /**
   * Lets go of a committed entry, together with the others committed in this turn. A release
   * that fails leaves them held: a drain finds them stored under their ids and lets go of them.
   */
  release(id: string): void {
    this.toRelease.push(id);
    if (this.toRelease.length > 1) return;
    this.releasing = new Promise<void>((resolve) =>
      setImmediate(() => {
        const ids = this.toRelease.splice(0);
        this.spool
          .release(ids)
          .catch(() => undefined)
          .finally(resolve);
      }),
    );
  }

  /** Resolves once the releases asked for so far are sent (or have failed). */
  async released(): Promise<void> {
    await this.releasing;
  }
}
