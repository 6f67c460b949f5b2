import type { DataSource } from 'typeorm';

/** The table that hands out activity-log ids, and its one row. */
export const LOG_SEQUENCE_TABLE = 'activity_log_sequence';
const SEQUENCE_NAME = 'activity_logs';

/** Ids reserved per round trip. A process that stops leaves the rest of its block unused (a gap). */
export const LOG_ID_BLOCK = 500;
/** The next block is reserved once this few ids of the current one are left. */
const REFILL_AT = 100;

interface Block {
  next: number;
  end: number;
}

/**
 * Activity-log ids on MySQL, taken from blocks each process reserves in `activity_log_sequence`
 * (`UPDATE ... SET next_id = LAST_INSERT_ID(next_id + n)`: one statement, atomic across
 * processes), so an entry's id is known before the entry is stored. Every entry the service writes
 * takes its id here, never from the table's auto-increment: two writers cannot be given one id.
 * A block also starts above the highest id stored, so rows written by other means (a restore, a
 * fixture) are stepped over; a row written that way inside a block already reserved is met as a
 * duplicate key, and `skipBlock` moves past it.
 */
export class LogIdBlocks {
  private current: Block | null = null;
  /** The next block, reserved (or being reserved) before the current one runs out. */
  private next: Promise<Block> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly blockSize = LOG_ID_BLOCK,
  ) {}

  /** The next id, without waiting, when the current block holds one (the next is then reserved in time). */
  takeNow(): string | null {
    const block = this.current;
    if (!block || block.next >= block.end) return null;
    const id = block.next++;
    if (block.end - block.next <= REFILL_AT) void this.reserveNext();
    return String(id);
  }

  /** The next id; rejects when a block cannot be reserved (the database is down). */
  async take(): Promise<string> {
    for (;;) {
      const id = this.takeNow();
      if (id !== null) return id;
      const next = this.reserveNext();
      try {
        const block = await next;
        // Concurrent callers wait for the same block: the first one to wake moves to it.
        if (this.next === next) {
          this.next = null;
          this.current = block;
        }
      } catch (error) {
        if (this.next === next) this.next = null;
        throw error;
      }
    }
  }

  /** Leaves the current block (an id of it was found taken): the next id comes from a new one. */
  skipBlock(): void {
    this.current = null;
    this.next = null;
  }

  private reserveNext(): Promise<Block> {
    if (!this.next) {
      this.next = this.reserveBlock();
      // A block that cannot be reserved now is tried again by the next `take` that needs one.
      this.next.catch(() => undefined);
    }
    return this.next;
  }

  private async reserveBlock(): Promise<Block> {
    const [{ above }] = await this.dataSource.query<{ above: string | number | null }[]>(
      'SELECT MAX(`id`) AS above FROM `activity_logs`',
    );
    const result = await this.dataSource.query<{ insertId: number; affectedRows: number }>(
      `UPDATE \`${LOG_SEQUENCE_TABLE}\` SET \`next_id\` = LAST_INSERT_ID(GREATEST(\`next_id\`, ?) + ?) WHERE \`name\` = ?`,
      [Number(above ?? 0) + 1, this.blockSize, SEQUENCE_NAME],
    );
    if (result.affectedRows !== 1) throw new Error(`${LOG_SEQUENCE_TABLE} has no row`);
    const end = Number(result.insertId);
    return { next: end - this.blockSize, end };
  }
}
