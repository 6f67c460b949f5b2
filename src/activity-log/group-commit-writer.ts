import type { DataSource, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { OneTripTransactions, type Statement } from '../database/one-trip';
import { isMysql, runTransaction } from '../database/transaction';
import { isPrimaryKeyViolation, isUniqueViolation } from '../database/unique-violation';
import type { ActivityLogEntity } from './activity-log.entity';
import {
  approximateBytes,
  DEFAULT_GROUP_COMMIT_LIMITS,
  type BatchStatements,
  type GroupCommitLimits,
  type LogRow,
  type Pending,
  type Written,
} from './group-commit.types';
import { StoredEntries } from './stored-entries';
import { LogIdBlocks } from './log-ids';

export type { BatchStatements, GroupCommitLimits, LogRow, Written } from './group-commit.types';
export { DEFAULT_GROUP_COMMIT_LIMITS } from './group-commit.types';

/**
 * Group commit of activity-log entries. Entries written in the same event-loop turn, and every
 * entry that arrives while earlier batches are committing, are inserted by one multi-row INSERT in
 * one transaction, so N concurrent jobs pay for one durable commit instead of N. Each `write`
 * resolves only once its own row is committed (with its id), so a process that dies before the
 * commit has completed no job whose entry is missing. A batch that fails is written again row by
 * row, each in its own transaction, so one bad entry cannot drop the others; an entry that still
 * fails resolves to null after `onFailure` is told. `write` never rejects.
 *
 * A row with an `attempt_key` is written at most once: one whose key is already stored (or earlier
 * in the same batch) is not inserted again and resolves to the stored entry's id with
 * `inserted: false`. The unique index settles a race between two processes: the loser's batch
 * fails on it and is written again row by row, where the violation is read as "already written".
 *
 * On MySQL a batch's transaction (START TRANSACTION, the INSERT, `after`'s statements, COMMIT) is
 * one round trip (`OneTripTransactions`, on a pool of `maxInFlight` connections), so the jobs
 * waiting for it wait for one trip instead of five; on SQLite, and once `close` has begun, it runs
 * through TypeORM.
 *
 * On MySQL each entry's id is known before it is inserted: taken from the process's block of ids
 * (`LogIdBlocks`) when its batch is built. On SQLite the table's own rowid is the id.
 */
export class GroupCommitWriter {
  private readonly dataSource: DataSource;
  private readonly columns: ColumnMetadata[];
  private readonly insertPrefix: string;
  private readonly rowPlaceholders: string;
  private readonly stored: StoredEntries;
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private oneTrip: OneTripTransactions | null;
  /** MySQL: every entry's id comes from blocks reserved in the sequence table (log-ids.ts). */
  private readonly ids: LogIdBlocks | null;
  /** Each written row's values as bound, prepared once: they also size its batch. */
  private readonly bound = new WeakMap<LogRow, unknown[]>();

  constructor(
    logs: Repository<ActivityLogEntity>,
    private readonly onFailure: (row: LogRow, error: unknown) => void,
    private readonly after: BatchStatements | null = null,
    private readonly limits: GroupCommitLimits = DEFAULT_GROUP_COMMIT_LIMITS,
  ) {
    this.dataSource = logs.manager.connection;
    this.oneTrip = isMysql(this.dataSource)
      ? new OneTripTransactions(this.dataSource, limits.maxInFlight)
      : null;
    this.ids = isMysql(this.dataSource) ? new LogIdBlocks(this.dataSource) : null;
    const escape = (name: string) => this.dataSource.driver.escape(name);
    this.columns = logs.metadata.columns.filter((c) => !c.isGenerated);
    const names = this.columns.map((c) => escape(c.databaseName));
    if (this.ids) names.unshift(escape('id'));
    this.insertPrefix = `INSERT INTO ${escape(logs.metadata.tableName)} (${names.join(', ')}) VALUES `;
    this.rowPlaceholders = `(${names.map(() => '?').join(', ')})`;
    this.stored = new StoredEntries(this.dataSource, logs.metadata.tableName);
  }

  /** Writes `row`; resolves once it is committed (null: it could not be written). */
  write(row: LogRow): Promise<Written | null> {
    return new Promise((resolve) => {
      const values = this.bind(row);
      this.bound.set(row, values);
      this.queue.push({ row, bytes: approximateBytes(values), resolve });
      this.schedule();
    });
  }

  /** Resolves once every entry written so far is committed (or has failed). */
  drain(): Promise<void> {
    if (!this.queue.length && !this.inFlight) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Drains, then closes the one-trip connections; entries written from now on (a job finishing
   * during shutdown) go through TypeORM's pool.
   */
  async close(): Promise<void> {
    const oneTrip = this.oneTrip;
    this.oneTrip = null;
    await this.drain();
    await oneTrip?.end();
  }

  private schedule(): void {
    if (this.scheduled || !this.queue.length || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // The rest of this turn's entries join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private get maxInFlight(): number {
    // The embedded SQLite database has one connection: its transactions run one at a time anyway.
    return isMysql(this.dataSource) ? this.limits.maxInFlight : 1;
  }

  private flush(): void {
    const batch = this.take();
    if (!batch.length) return;
    this.inFlight += 1;
    void this.commit(batch).finally(() => {
      this.inFlight -= 1;
      this.schedule();
      if (!this.queue.length && !this.inFlight) {
        for (const resolve of this.idle.splice(0)) resolve();
      }
    });
    this.schedule();
  }

  private take(): Pending[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && n < this.limits.maxRows) {
      bytes += this.queue[n].bytes;
      if (n > 0 && bytes > this.limits.maxBytes) break;
      n += 1;
    }
    return this.queue.splice(0, n);
  }

  private async commit(batch: Pending[]): Promise<void> {
    let written: Written[];
    try {
      written = await this.insert(batch);
    } catch {
      for (const pending of batch) pending.resolve(await this.insertOne(pending));
      return;
    }
    batch.forEach((pending, i) => pending.resolve(written[i]));
  }

  /**
   * One entry on its own. A unique violation is read: the entry's attempt already stored counts
   * as written; an id taken here that a row written by other means holds is replaced, once, by
   * one from a new block.
   */
  private async insertOne(pending: Pending, again = false): Promise<Written | null> {
    const { row } = pending;
    try {
      const [written] = await this.insert([pending]);
      return written;
    } catch (error) {
      const key = row.attempt_key;
      const stored =
        isUniqueViolation(error) && key
          ? await this.stored.attempts([key]).catch(() => null)
          : null;
      const id = stored?.get(key ?? '');
      if (id) return { id, inserted: false };
      if (this.ids && pending.id && isPrimaryKeyViolation(error) && !again) {
        this.ids.skipBlock();
        pending.id = undefined;
        return this.insertOne(pending, true);
      }
      this.onFailure(row, error);
      return null;
    }
  }

  /**
   * Inserts `rows` with one statement in one transaction; each row's entry in order, once
   * committed. A row repeating an earlier row's attempt in the batch is not inserted again. An
   * attempt already stored is not looked up first: the unique index fails the batch, which
   * `commit` then writes row by row, where the violation is read as "already written" (a
   * redelivered job's, rare), so a batch costs no read.
   */
  private async insert(batch: Pending[]): Promise<Written[]> {
    // Attempt key → the entry of this batch that carries it first.
    const first = new Map<string, Pending>();
    const fresh = batch.filter((pending) => {
      const key = pending.row.attempt_key;
      if (!key) return true;
      if (first.has(key)) return false;
      first.set(key, pending);
      return true;
    });
    if (this.ids) for (const p of fresh) p.id ??= this.ids.takeNow() ?? (await this.ids.take());
    const rows = fresh.map((p) => p.row);
    const statements = [this.insertStatement(fresh), ...(this.after?.(rows) ?? [])];
    const oneTrip = this.oneTrip;
    const ids = oneTrip
      ? this.idsOf((await oneTrip.run(statements))[0], fresh)
      : await runTransaction(this.dataSource, async (em) => {
          const [insert, ...rest] = statements;
          const own = this.idsOf(await em.query(insert.sql, insert.params), fresh);
          for (const statement of rest) await em.query(statement.sql, statement.params);
          return own;
        });
    const own = new Map(fresh.map((p, i) => [p, ids[i]]));
    return batch.map((p): Written => {
      const id = own.get(p);
      if (id !== undefined) return { id, inserted: true };
      return { id: own.get(first.get(p.row.attempt_key ?? '')!)!, inserted: false };
    });
  }

  /** One multi-row INSERT of `rows`. */
  private insertStatement(batch: Pending[]): Statement {
    const params: unknown[] = [];
    for (const { row, id } of batch) {
      if (this.ids) params.push(id);
      params.push(...(this.bound.get(row) ?? this.bind(row)));
    }
    const sql =
      this.insertPrefix + new Array<string>(batch.length).fill(this.rowPlaceholders).join(', ');
    return { sql, params };
  }

  /** The row's column values as the driver binds them (JSON columns serialised). */
  private bind(row: LogRow): unknown[] {
    return this.columns.map((column): unknown =>
      this.dataSource.driver.preparePersistentValue(
        (row as Record<string, unknown>)[column.propertyName],
        column,
      ),
    );
  }

  /**
   * Each inserted entry's id: on MySQL the one it was given; on SQLite, whose single connection
   * inserts one row after the other, counted back from the last rowid. The row count guards an
   * invariant (an INSERT without IGNORE stores every row or fails); a one-trip batch is already
   * committed when it is checked.
   */
  private idsOf(result: unknown, fresh: Pending[]): string[] {
    const n = fresh.length;
    if (this.ids) {
      const { affectedRows } = result as { affectedRows: number };
      if (affectedRows !== n) throw new Error(`inserted ${affectedRows} of ${n} rows`);
      return fresh.map((p) => p.id!);
    }
    const last = Number(result);
    return Array.from({ length: n }, (_, i) => String(last - (n - 1 - i)));
  }
}
