import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { OneTripTransactions, type Statement } from '../database/one-trip';
import { isMysql, runTransaction } from '../database/transaction';
import { isUniqueViolation } from '../database/unique-violation';
import type { ActivityLogEntity } from './activity-log.entity';

/** One entry as it is stored: every column but the generated id. */
export type LogRow = Omit<ActivityLogEntity, 'id'>;

/**
 * The statements that run in the batch's transaction after its rows are inserted (e.g. to maintain
 * counters), given the rows inserted.
 */
export type BatchStatements = (rows: LogRow[]) => Statement[];

export interface GroupCommitLimits {
  /** Rows per INSERT statement. */
  maxRows: number;
  /** Approximate bytes of row data per statement (MySQL's max_allowed_packet is 16-64 MB). */
  maxBytes: number;
  /** Batches committing at once; entries arriving meanwhile wait and form the next batch. */
  maxInFlight: number;
}

export const DEFAULT_GROUP_COMMIT_LIMITS: GroupCommitLimits = {
  maxRows: 200,
  maxBytes: 4 * 1024 * 1024,
  maxInFlight: 2,
};

/** A committed entry: its id, and whether this write inserted it (false: it was there already). */
export interface Written {
  id: string;
  inserted: boolean;
}

interface Pending {
  row: LogRow;
  bytes: number;
  resolve: (written: Written | null) => void;
}

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
 */
export class GroupCommitWriter {
  private readonly dataSource: DataSource;
  private readonly columns: ColumnMetadata[];
  private readonly insertPrefix: string;
  private readonly rowPlaceholders: string;
  private readonly selectByAttemptKey: string;
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private autoIncrementStep?: Promise<number>;
  private oneTrip: OneTripTransactions | null;
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
    const escape = (name: string) => this.dataSource.driver.escape(name);
    this.columns = logs.metadata.columns.filter((c) => !c.isGenerated);
    this.insertPrefix = `INSERT INTO ${escape(logs.metadata.tableName)} (${this.columns
      .map((c) => escape(c.databaseName))
      .join(', ')}) VALUES `;
    this.rowPlaceholders = `(${this.columns.map(() => '?').join(', ')})`;
    this.selectByAttemptKey = `SELECT ${escape('id')} AS id, ${escape('attempt_key')} AS attempt_key FROM ${escape(logs.metadata.tableName)} WHERE ${escape('attempt_key')} IN `;
  }

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
      written = await this.insert(batch.map((p) => p.row));
    } catch {
      for (const pending of batch) pending.resolve(await this.insertOne(pending.row));
      return;
    }
    batch.forEach((pending, i) => pending.resolve(written[i]));
  }

  private async insertOne(row: LogRow): Promise<Written | null> {
    try {
      const [written] = await this.insert([row]);
      return written;
    } catch (error) {
      const stored =
        isUniqueViolation(error) && row.attempt_key
          ? await this.storedAttempts(this.dataSource.manager, [row.attempt_key]).catch(() => null)
          : null;
      const id = stored?.get(row.attempt_key ?? '');
      if (id) return { id, inserted: false };
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
  private async insert(rows: LogRow[]): Promise<Written[]> {
    const step = await this.step();
    // Attempt key → the row of this batch that carries it first.
    const first = new Map<string, LogRow>();
    const fresh = rows.filter((row) => {
      const key = row.attempt_key;
      if (!key) return true;
      if (first.has(key)) return false;
      first.set(key, row);
      return true;
    });
    const statements = [this.insertStatement(fresh), ...(this.after?.(fresh) ?? [])];
    const oneTrip = this.oneTrip;
    const ids = oneTrip
      ? this.idsOf((await oneTrip.run(statements))[0], fresh.length, step)
      : await runTransaction(this.dataSource, async (em) => {
          const [insert, ...rest] = statements;
          const own = this.idsOf(await em.query(insert.sql, insert.params), fresh.length, step);
          for (const statement of rest) await em.query(statement.sql, statement.params);
          return own;
        });
    const own = new Map(fresh.map((row, i) => [row, ids[i]]));
    return rows.map((row): Written => {
      const id = own.get(row);
      if (id !== undefined) return { id, inserted: true };
      return { id: own.get(first.get(row.attempt_key ?? '')!)!, inserted: false };
    });
  }

  /** The ids of the entries stored under `keys`, by key. */
  private async storedAttempts(em: EntityManager, keys: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(keys)];
    const rows = await em.query<{ id: string | number; attempt_key: string }[]>(
      `${this.selectByAttemptKey}(${unique.map(() => '?').join(', ')})`,
      unique,
    );
    return new Map(rows.map((row) => [row.attempt_key, String(row.id)]));
  }

  /** One multi-row INSERT of `rows`. */
  private insertStatement(rows: LogRow[]): Statement {
    const params: unknown[] = [];
    for (const row of rows) params.push(...(this.bound.get(row) ?? this.bind(row)));
    const sql =
      this.insertPrefix + new Array<string>(rows.length).fill(this.rowPlaceholders).join(', ');
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
   * One multi-row INSERT takes consecutive auto-increment values: MySQL reports the first (and
   * gives a statement whose row count is known in advance an unbroken run, at
   * `auto_increment_increment` apart); SQLite, whose single connection inserts one row after the
   * other, reports the last. The row count guards an invariant (an INSERT without IGNORE stores
   * every row or fails); a one-trip batch is already committed when it is checked.
   */
  private idsOf(result: unknown, n: number, step: number): string[] {
    if (isMysql(this.dataSource)) {
      const { insertId, affectedRows } = result as { insertId: number; affectedRows: number };
      if (affectedRows !== n) throw new Error(`inserted ${affectedRows} of ${n} rows`);
      return Array.from({ length: n }, (_, i) => String(Number(insertId) + i * step));
    }
    const last = Number(result);
    return Array.from({ length: n }, (_, i) => String(last - (n - 1 - i)));
  }

  private step(): Promise<number> {
    if (!isMysql(this.dataSource)) return Promise.resolve(1);
    this.autoIncrementStep ??= this.dataSource
      .query<{ step: string | number }[]>('SELECT @@auto_increment_increment AS step')
      .then(([row]) => Number(row?.step ?? 1));
    const step = this.autoIncrementStep;
    // A failed read is tried again by the next batch.
    step.catch(() => {
      if (this.autoIncrementStep === step) this.autoIncrementStep = undefined;
    });
    return step;
  }
}

/** A row's size in a statement, from its bound values (the JSON columns already serialised). */
function approximateBytes(values: unknown[]): number {
  let bytes = 256;
  for (const value of values)
    bytes += typeof value === 'string' || Buffer.isBuffer(value) ? value.length : 8;
  return bytes;
}
