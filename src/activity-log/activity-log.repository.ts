import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository, type SelectQueryBuilder } from 'typeorm';
import { parseIsoTimestamp } from '../common/time/iso';
import { ReplicaReads } from '../database/replica-reads';
import { wherePolicyOutcome } from './policy-outcome-filter';
import { ActivityLogEntity } from './activity-log.entity';
import type { LogsQueryDto } from './dto/logs-query.dto';
import type { LogCursor } from './log-cursor';
import { dayOf, sumCounts } from './log-counts';
import { timestampParam } from './timestamp-param';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Bounds on `timestamp`: `from` inclusive, `before` exclusive, `to` inclusive; `after` keeps only
 * entries older than a cursor in the page's order `(timestamp, id)` descending.
 */
interface TimeRange {
  from?: Date;
  before?: Date;
  to?: Date;
  after?: LogCursor;
}

/** Midnight UTC at or before `date`. */
const floorDay = (date: Date): Date => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
/** Midnight UTC at or after `date`. */
const ceilDay = (date: Date): Date => new Date(Math.ceil(date.getTime() / DAY_MS) * DAY_MS);

/** Equality filters and their `(user_id, <column>, timestamp, id)` index, most selective first. */
const EQUALITY_FILTERS = [
  ['trace_id', 'idx_logs_user_trace_ts'],
  ['room_name', 'idx_logs_user_room_ts'],
  ['assistant_id', 'idx_logs_user_assistant_ts'],
  ['log_type', 'idx_logs_user_type_ts'],
  ['status', 'idx_logs_user_status_ts'],
  ['error_class', 'idx_logs_user_error_class_ts'],
] as const;

/**
 * The queries of the activity log, and nothing else: which ids a page holds, how many entries
 * match, the rows of one call or one entry. `ActivityLogService` decides what to ask.
 */
@Injectable()
export class ActivityLogRepository {
  constructor(
    @InjectRepository(ActivityLogEntity) readonly entries: Repository<ActivityLogEntity>,
    @Optional() private readonly replicas?: ReplicaReads,
  ) {}

  /**
   * Runs `read` with this repository reading through a replica (`DATABASE_REPLICA_URLS`): the log
   * may lag the primary by the replication delay, which its readers accept. Without replicas, on
   * the primary.
   */
  onReplica<T>(read: (reader: ActivityLogRepository) => Promise<T>): Promise<T> {
    if (!this.replicas?.enabled) return read(this);
    return this.replicas.run((manager) =>
      read(new ActivityLogRepository(manager.getRepository(ActivityLogEntity))),
    );
  }

  /** The rows of `ids`, in no particular order. */
  findByIds(ids: string[]): Promise<ActivityLogEntity[]> {
    return ids.length ? this.entries.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  /**
   * Whether the log holds `entry` already: by its `attempt_key` (unique) when a journaled attempt
   * made it, else the same owner, room, type, timestamp and trace id (by the
   * `(user_id, room_name, timestamp, id)` index). On the primary: the spool drain asks it.
   */
  async hasEntry(
    entry: Pick<ActivityLogEntity, 'user_id' | 'room_name' | 'log_type'> & {
      timestamp?: Date;
      trace_id?: string | null;
      attempt_key?: string | null;
    },
  ): Promise<boolean> {
    // A journaled attempt's entry is found by its unique key.
    if (entry.attempt_key) {
      return this.entries.exists({ where: { attempt_key: entry.attempt_key } });
    }
    const { driver } = this.entries.manager.connection;
    const column = this.entries.metadata.findColumnWithPropertyName('timestamp');
    const row: unknown = await this.entries
      .createQueryBuilder('l')
      .select('l.id', 'id')
      .where('l.user_id = :user AND l.room_name = :room AND l.timestamp = :at', {
        user: entry.user_id,
        room: entry.room_name,
        at: column
          ? (driver.preparePersistentValue(entry.timestamp, column) as unknown)
          : entry.timestamp,
      })
      .andWhere('l.log_type = :type', { type: entry.log_type })
      // An entry without a trace id is stored with NULL, which `=` never matches.
      .andWhere(entry.trace_id ? 'l.trace_id = :trace' : 'l.trace_id IS NULL', {
        trace: entry.trace_id,
      })
      .limit(1)
      .getRawOne();
    return row !== undefined && row !== null;
  }

  /** The first `take` entries of one room of the user, oldest first. */
  findRoom(userId: string, roomName: string, take: number): Promise<ActivityLogEntity[]> {
    return this.entries.find({
      where: { user_id: userId, room_name: roomName },
      order: { timestamp: 'ASC', id: 'ASC' },
      take,
    });
  }

  findOwned(userId: string, logId: string): Promise<ActivityLogEntity | null> {
    return this.entries.findOneBy({ id: logId, user_id: userId });
  }

  /** One of the user's entries with its `request_body`, which reads leave out. */
  findOwnedWithBody(userId: string, logId: string): Promise<ActivityLogEntity | null> {
    return this.entries
      .createQueryBuilder('l')
      .addSelect('l.request_body')
      .where('l.id = :logId AND l.user_id = :userId', { logId, userId })
      .getOne();
  }

  /** Ids of one page (`take` of them, after `skip` or after the cursor), newest first; found in the index alone. */
  async pageIds(
    userId: string,
    query: LogsQueryDto,
    skip: number,
    take: number = query.limit,
    after?: LogCursor,
  ): Promise<string[]> {
    const range = { ...this.rangeOf(query), after };
    const joined = this.intersection(userId, query, range);
    if (joined) {
      const rows = await this.entries.query<{ id: string | number }[]>(
        `SELECT a.id AS id FROM ${joined.from} WHERE ${joined.where} ORDER BY a.timestamp DESC, a.id DESC LIMIT ? OFFSET ?`,
        [...joined.params, take, skip],
      );
      return rows.map((row) => String(row.id));
    }
    const rows = await this.filtered(userId, query, range)
      .select('l.id', 'id')
      .orderBy('l.timestamp', 'DESC')
      .addOrderBy('l.id', 'DESC')
      .offset(skip)
      .limit(take)
      .getRawMany<{ id: string | number }>();
    return rows.map((row) => String(row.id));
  }

  /**
   * How many entries match the filters, exactly. With `room_name` or `trace_id` (few entries) they
   * are counted in the index. Otherwise the whole UTC days of the range are summed from the
   * per-day counters, which are kept in the same transactions as the entries, and only the partial
   * days at the range's edges (at most two days of one user) are counted entry by entry.
   */
  async countMatching(userId: string, query: LogsQueryDto): Promise<number> {
    // A room or a trace holds few entries; neither (nor a policy outcome) keys the day counters.
    if ([query.room_name, query.trace_id, query.policy_outcome].some((v) => v !== undefined))
      return this.countExact(userId, query);
    const { from, to } = this.rangeOf(query);
    const firstWholeDay = from && ceilDay(from);
    const endOfWholeDays = to && floorDay(to);
    if (firstWholeDay && endOfWholeDays && firstWholeDay >= endOfWholeDays) {
      return this.countExact(userId, query);
    }
    const parts = [
      sumCounts(
        this.entries.manager,
        userId,
        query,
        firstWholeDay ? dayOf(firstWholeDay) : null,
        endOfWholeDays ? dayOf(endOfWholeDays) : null,
      ),
    ];
    if (from && firstWholeDay && firstWholeDay > from) {
      parts.push(this.countExact(userId, query, { from, before: firstWholeDay }));
    }
    if (to && endOfWholeDays)
      parts.push(this.countExact(userId, query, { from: endOfWholeDays, to }));
    return (await Promise.all(parts)).reduce((sum, n) => sum + n, 0);
  }

  /** Entries matching the filters in `range`, counted in the same index as the page reads. */
  async countExact(
    userId: string,
    query: LogsQueryDto,
    range = this.rangeOf(query),
  ): Promise<number> {
    const joined = this.intersection(userId, query, range);
    if (joined) {
      const [row] = await this.entries.query<{ total: string | number }[]>(
        `SELECT COUNT(*) AS total FROM ${joined.from} WHERE ${joined.where}`,
        joined.params,
      );
      return Number(row?.total ?? 0);
    }
    const row = await this.filtered(userId, query, range)
      .select('COUNT(*)', 'total')
      .getRawOne<{ total: string | number }>();
    return Number(row?.total ?? 0);
  }

  /** The WHERE clause shared by the page and its count, so `total` always describes the same set. */
  filtered(
    userId: string,
    query: LogsQueryDto,
    range = this.rangeOf(query),
  ): SelectQueryBuilder<ActivityLogEntity> {
    const qb = this.entries.createQueryBuilder('l').where('l.user_id = :userId', { userId });
    if (query.log_type) qb.andWhere('l.log_type = :logType', { logType: query.log_type });
    if (query.assistant_id)
      qb.andWhere('l.assistant_id = :assistantId', { assistantId: query.assistant_id });
    if (query.room_name) qb.andWhere('l.room_name = :roomName', { roomName: query.room_name });
    if (query.status) qb.andWhere('l.status = :status', { status: query.status });
    if (query.error_class)
      qb.andWhere('l.error_class = :errorClass', { errorClass: query.error_class });
    if (query.trace_id) qb.andWhere('l.trace_id = :traceId', { traceId: query.trace_id });
    if (query.policy_outcome) wherePolicyOutcome(qb, query.policy_outcome);
    if (range.from) qb.andWhere('l.timestamp >= :from', { from: this.param(range.from) });
    if (range.before) qb.andWhere('l.timestamp < :before', { before: this.param(range.before) });
    if (range.to) qb.andWhere('l.timestamp <= :to', { to: this.param(range.to) });
    if (range.after) {
      // `timestamp <= t` alone bounds the index range; the OR only trims entries at t itself.
      const at = this.param(range.after.timestamp);
      qb.andWhere('l.timestamp <= :at AND (l.timestamp < :at OR l.id < :afterId)', {
        at,
        afterId: range.after.id,
      });
    }
    return qb;
  }

  /**
   * MySQL, two or more of the equality filters: no single index holds both columns, and reading
   * each candidate row to check the second one costs a random primary-key read per entry (seconds
   * on a deep page of a large log). Instead the most selective filter's index drives, and each
   * other filter is checked by an exact lookup (user, value, timestamp, id) in its own index, so
   * page ids and count still come from indexes alone. Index names come from a constant table.
   */
  intersection(
    userId: string,
    query: LogsQueryDto,
    range = this.rangeOf(query),
  ): { from: string; where: string; params: unknown[] } | null {
    if (this.entries.manager.connection.options.type !== 'mysql') return null;
    if (query.policy_outcome !== undefined) return null; // read from the entry: `filtered`
    const filters = EQUALITY_FILTERS.filter(([key]) => query[key] !== undefined);
    if (filters.length < 2) return null;
    const [drive, ...others] = filters;
    const params: unknown[] = [];
    let from = `activity_logs a FORCE INDEX (${drive[1]})`;
    others.forEach(([key, index], n) => {
      from +=
        ` JOIN activity_logs j${n} FORCE INDEX (${index}) ON j${n}.user_id = a.user_id` +
        ` AND j${n}.${key} = ? AND j${n}.timestamp = a.timestamp AND j${n}.id = a.id`;
      params.push(query[key]);
    });
    let where = `a.user_id = ? AND a.${drive[0]} = ?`;
    params.push(userId, query[drive[0]]);
    for (const [bound, op] of [
      [range.from, '>='],
      [range.before, '<'],
      [range.to, '<='],
    ] as const) {
      if (!bound) continue;
      where += ` AND a.timestamp ${op} ?`;
      params.push(this.param(bound));
    }
    if (range.after) {
      const at = this.param(range.after.timestamp);
      where += ' AND a.timestamp <= ? AND (a.timestamp < ? OR a.id < ?)';
      params.push(at, at, range.after.id);
    }
    return { from, where, params };
  }

  private rangeOf(query: LogsQueryDto): TimeRange {
    return {
      from: query.from ? parsedDate(query.from) : undefined,
      to: query.to ? parsedDate(query.to) : undefined,
    };
  }

  private param(date: Date): unknown {
    return timestampParam(this.entries, date);
  }
}

function parsedDate(value: string): Date {
  const date = parseIsoTimestamp(value);
  if (!date) throw new Error(`unparseable timestamp passed validation: ${value}`);
  return date;
}
