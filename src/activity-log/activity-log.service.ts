import { Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { ErrorClass } from '../contracts/error-class';
import { loggableError } from '../common/errors/loggable-error';
import { parseIsoTimestamp, toIso } from '../common/time/iso';
import { ReplicaReads } from '../database/replica-reads';
import { MetricsService } from '../metrics/metrics.service';
import { skipOf } from '../common/pagination/pagination-query.dto';
import { ActivityLogEntity, type LogStatus, type LogType } from './activity-log.entity';
import type { LogEntryDto, LogsPageDto, LogTimelineDto } from './dto/log-entry.dto';
import { GroupCommitWriter } from './group-commit-writer';
import { decodeLogCursor, encodeLogCursor, type LogCursor } from './log-cursor';
import { addCounts, dayOf, sumCounts } from './log-counts';
import { addTargetCounts } from './log-targets';
import type { LogsQueryDto } from './dto/logs-query.dto';
import { storableJson } from './storable-json';
import { timestampParam } from './timestamp-param';

export interface ActivityLogInput {
  user_id: string;
  log_type: LogType;
  status: LogStatus;
  assistant_id: string | null;
  room_name: string;
  message: string;
  /** Outbound request details. Header values must already be redacted by the caller. */
  request_data: Record<string, unknown>;
  response_data: Record<string, unknown>;
  latency_ms: number;
  timestamp?: Date;
  /** Why it failed (error-class.ts); null, or absent, on success. */
  error_class?: ErrorClass | null;
  /** W3C trace id of the job that made the request. */
  trace_id?: string | null;
  /** The whole JSON body sent, kept for a replay when it fits `MAX_STORED_REQUEST_BODY_BYTES`. */
  request_body?: string | null;
  /** The entry a replay repeats. */
  replay_of?: string | null;
}

/** An entry as a replay reads it: what was sent, and where it belongs. */
export interface SentRequestEntry {
  log_id: string;
  log_type: LogType;
  assistant_id: string | null;
  room_name: string;
  request_data: Record<string, unknown>;
  /** The whole JSON body sent; null when nothing was sent or it was not kept. */
  request_body: string | null;
  trace_id: string | null;
}

/** The largest request body an entry keeps for a replay (a larger one is not kept). */
export const MAX_STORED_REQUEST_BODY_BYTES = 1024 * 1024;

/** The body as an entry keeps it: whole, or not at all when it is larger than the limit. */
function keptBody(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  return Buffer.byteLength(body, 'utf8') <= MAX_STORED_REQUEST_BODY_BYTES ? body : null;
}

const MAX_MESSAGE = 1000;
/** The most entries `GET /logs/timeline/:room_name` returns for one call. */
export const TIMELINE_MAX_ENTRIES = 1000;
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
 * The one writer and reader of the activity log. A failed write never fails the job that
 * produced the entry: it is reported in the service log and `record` resolves to null.
 */
@Injectable()
export class ActivityLogService implements OnModuleDestroy {
  private readonly logger = new Logger(ActivityLogService.name);

  private readonly writer: GroupCommitWriter;

  constructor(
    @InjectRepository(ActivityLogEntity) private readonly logs: Repository<ActivityLogEntity>,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly replicas?: ReplicaReads,
  ) {
    this.writer = new GroupCommitWriter(
      logs,
      (row, error) => this.writeFailed(row, error),
      async (em, rows) => {
        await addCounts(em, rows);
        await addTargetCounts(em, rows);
      },
    );
  }

  /**
   * Writes one entry; resolves to its id once it is committed, or to null if it could not be
   * written (reported in the service log). Concurrent entries share one INSERT and one commit.
   * Every outbound webhook's outcome is recorded here, so it is also counted (by kind, outcome and
   * error class) and timed here.
   * Text and data are stored in a form every database accepts (`storableJson`): a lone surrogate
   * from a customer's response or a tool's arguments must not cost the entry.
   */
  async record(input: ActivityLogInput): Promise<string | null> {
    const errorClass = input.status === 'success' ? null : (input.error_class ?? 'internal');
    this.metrics?.observeWebhook({
      kind: input.log_type,
      outcome: input.status,
      errorClass,
      latencyMs: input.latency_ms,
    });
    try {
      return await this.writer.write({
        user_id: input.user_id,
        log_type: input.log_type,
        status: input.status,
        assistant_id: input.assistant_id,
        message: storableJson(
          input.message.length > MAX_MESSAGE
            ? `${input.message.slice(0, MAX_MESSAGE - 1)}…`
            : input.message,
        ),
        room_name: storableJson(input.room_name.slice(0, 255)),
        request_data: storableJson(input.request_data),
        response_data: storableJson(input.response_data),
        latency_ms: Math.max(0, Math.round(input.latency_ms)),
        timestamp: input.timestamp ?? new Date(),
        error_class: errorClass,
        trace_id: input.trace_id ?? null,
        request_body: keptBody(input.request_body),
        replay_of: input.replay_of ?? null,
      });
    } catch (error) {
      this.writeFailed(input, error);
      return null;
    }
  }

  /** Resolves once every entry recorded so far is committed or has failed. */
  onModuleDestroy(): Promise<void> {
    return this.writer.drain();
  }

  private writeFailed(
    input: Pick<ActivityLogInput, 'log_type' | 'assistant_id' | 'room_name'>,
    error: unknown,
  ): void {
    this.metrics?.countLogWriteFailure();
    this.logger.error(
      {
        err: loggableError(error),
        log_type: input.log_type,
        assistant_id: input.assistant_id,
        room_name: input.room_name,
      },
      'activity log write failed',
    );
  }

  /**
   * One page of the caller's entries, newest first (timestamp, then id, so equal timestamps never
   * make a page repeat or skip an entry). Every filter set is a range of one `(user_id, <filter>,
   * timestamp, id)` index read backwards; the page's ids are found in the index alone and only
   * those rows are read, so a deep page costs an index walk rather than reading every skipped row.
   * With `cursor` the page starts after the entry it names (keyset paging: entries written in the
   * meantime are newer, so they never shift an older entry into or out of the walk) and `page` is
   * ignored. One id more than the page is read, so `next_cursor` is null exactly on the last page.
   */
  list(userId: string, query: LogsQueryDto): Promise<LogsPageDto> {
    return this.onReplica((reader) => reader.readPage(userId, query));
  }

  private async readPage(userId: string, query: LogsQueryDto): Promise<LogsPageDto> {
    const after = query.cursor === undefined ? undefined : decodeLogCursor(query.cursor);
    if (after === null) throw new Error('cursor passed validation but does not decode');
    const skip = after ? 0 : skipOf(query);
    const [found, total] = await Promise.all([
      Number.isSafeInteger(skip + query.limit)
        ? this.pageIds(userId, query, skip, query.limit + 1, after)
        : Promise.resolve([]),
      this.countMatching(userId, query),
    ]);
    const ids = found.slice(0, query.limit);
    const rows = ids.length ? await this.logs.find({ where: { id: In(ids) } }) : [];
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    const page = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
    const last = page.at(-1);
    const next_cursor =
      found.length > query.limit && last
        ? encodeLogCursor({ timestamp: last.timestamp, id: String(last.id) })
        : null;
    return { logs: page.map(toLogEntry), total, page: query.page, limit: query.limit, next_cursor };
  }

  /**
   * Every entry of one call (`room_name`) of the caller, oldest first, at most
   * `TIMELINE_MAX_ENTRIES` (a call makes a handful): one range of the `(user_id, room_name,
   * timestamp, id)` index. The call's assistant and version are the first ones an entry names;
   * null when the caller has no entry in that room.
   */
  timeline(userId: string, roomName: string): Promise<LogTimelineDto | null> {
    return this.onReplica((reader) => reader.readTimeline(userId, roomName));
  }

  private async readTimeline(userId: string, roomName: string): Promise<LogTimelineDto | null> {
    const rows = await this.logs.find({
      where: { user_id: userId, room_name: roomName },
      order: { timestamp: 'ASC', id: 'ASC' },
      take: TIMELINE_MAX_ENTRIES,
    });
    if (rows.length === 0) return null;
    const versioned = rows.find((row) => 'assistant_version' in (row.request_data ?? {}));
    const version = versioned?.request_data.assistant_version;
    return {
      room_name: roomName,
      assistant_id: (versioned ?? rows.find((row) => row.assistant_id))?.assistant_id ?? null,
      assistant_version: typeof version === 'number' ? version : null,
      entries: rows.map(toLogEntry),
    };
  }

  /** One of the caller's entries as `GET /logs` shows it; null when it is not theirs or does not exist. */
  async findOwned(userId: string, logId: string): Promise<LogEntryDto | null> {
    const row = await this.logs.findOneBy({ id: logId, user_id: userId });
    return row ? toLogEntry(row) : null;
  }

  /** One of the caller's entries with the whole body its request sent (what a replay sends again). */
  async findSentRequest(userId: string, logId: string): Promise<SentRequestEntry | null> {
    const row = await this.logs
      .createQueryBuilder('l')
      .addSelect('l.request_body')
      .where('l.id = :logId AND l.user_id = :userId', { logId, userId })
      .getOne();
    if (!row) return null;
    return {
      log_id: String(row.id),
      log_type: row.log_type,
      assistant_id: row.assistant_id,
      room_name: row.room_name,
      request_data: row.request_data,
      request_body: row.request_body ?? null,
      trace_id: row.trace_id ?? null,
    };
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
      const rows = await this.logs.query<{ id: string | number }[]>(
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
   * How many entries match the filters, exactly. With `room_name` (a room holds few entries) they
   * are counted in the index. Otherwise the whole UTC days of the range are summed from the
   * per-day counters, which are kept in the same transactions as the entries, and only the partial
   * days at the range's edges (at most two days of one user) are counted entry by entry.
   */
  async countMatching(userId: string, query: LogsQueryDto): Promise<number> {
    // A room or a trace holds few entries; the per-day counters have no error class.
    if (
      query.room_name !== undefined ||
      query.trace_id !== undefined ||
      query.error_class !== undefined
    )
      return this.countExact(userId, query);
    const from = query.from ? this.date(query.from) : undefined;
    const to = query.to ? this.date(query.to) : undefined;
    const firstWholeDay = from && ceilDay(from);
    const endOfWholeDays = to && floorDay(to);
    if (firstWholeDay && endOfWholeDays && firstWholeDay >= endOfWholeDays) {
      return this.countExact(userId, query);
    }
    const parts = [
      sumCounts(
        this.logs.manager,
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
      const [row] = await this.logs.query<{ total: string | number }[]>(
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
    const qb = this.logs.createQueryBuilder('l').where('l.user_id = :userId', { userId });
    if (query.log_type) qb.andWhere('l.log_type = :logType', { logType: query.log_type });
    if (query.assistant_id)
      qb.andWhere('l.assistant_id = :assistantId', { assistantId: query.assistant_id });
    if (query.room_name) qb.andWhere('l.room_name = :roomName', { roomName: query.room_name });
    if (query.status) qb.andWhere('l.status = :status', { status: query.status });
    if (query.error_class)
      qb.andWhere('l.error_class = :errorClass', { errorClass: query.error_class });
    if (query.trace_id) qb.andWhere('l.trace_id = :traceId', { traceId: query.trace_id });
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
    if (this.logs.manager.connection.options.type !== 'mysql') return null;
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

  /**
   * Runs `read` on this service reading through a replica (`DATABASE_REPLICA_URLS`): the log may
   * lag the primary by the replication delay, which its readers accept. The reader is this
   * service with its repository bound to one replica connection; without replicas, this service.
   */
  private onReplica<T>(read: (reader: this) => Promise<T>): Promise<T> {
    if (!this.replicas?.enabled) return read(this);
    return this.replicas.run((manager) => {
      const reader: this = Object.create(this, {
        logs: { value: manager.getRepository(ActivityLogEntity) },
      }) as this;
      return read(reader);
    });
  }

  private rangeOf(query: LogsQueryDto): TimeRange {
    return {
      from: query.from ? this.date(query.from) : undefined,
      to: query.to ? this.date(query.to) : undefined,
    };
  }

  private date(value: string): Date {
    const date = parseIsoTimestamp(value);
    if (!date) throw new Error(`unparseable timestamp passed validation: ${value}`);
    return date;
  }

  private param(date: Date): unknown {
    return timestampParam(this.logs, date);
  }
}

export function toLogEntry(row: ActivityLogEntity): LogEntryDto {
  return {
    log_id: String(row.id),
    log_type: row.log_type,
    status: row.status,
    assistant_id: row.assistant_id,
    room_name: row.room_name,
    timestamp: toIso(row.timestamp),
    message: row.message,
    request_data: row.request_data,
    response_data: row.response_data,
    latency_ms: row.latency_ms,
    error_class: row.error_class ?? null,
    trace_id: row.trace_id ?? null,
    replay_of: row.replay_of ?? null,
  };
}
