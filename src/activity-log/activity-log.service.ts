import { Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { ErrorClass } from '../contracts/error-class';
import { loggableError } from '../common/errors/loggable-error';
import { toIso } from '../common/time/iso';
import { MetricsService } from '../metrics/metrics.service';
import { skipOf } from '../common/pagination/pagination-query.dto';
import type { ActivityLogEntity, LogStatus, LogType } from './activity-log.entity';
import { ActivityLogRepository } from './activity-log.repository';
import type { LogEntryDto, LogsPageDto, LogTimelineDto } from './dto/log-entry.dto';
import { GroupCommitWriter, type LogRow, type Written } from './group-commit-writer';
import { decodeLogCursor, encodeLogCursor } from './log-cursor';
import { countsStatement } from './log-counts';
import { targetCountsStatement } from './log-targets';
import type { LogsQueryDto } from './dto/logs-query.dto';
import { toRow } from './storable-json';
import { LogWriteRetry, type TimedEntry } from './log-write-retry';
import { LogBatchHooks } from './log-batch-hooks';

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
  /**
   * The journaled job attempt the entry records (attempt-journal.ts): an entry with a key already
   * stored is not written again, and `record` resolves to the stored entry's id.
   */
  attempt_key?: string | null;
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

/** The most entries `GET /logs/timeline/:room_name` returns for one call. */
export const TIMELINE_MAX_ENTRIES = 1000;

/**
 * The one writer and reader of the activity log. A failed write never fails the job that
 * produced the entry: it is reported in the service log, `record` resolves to null, and the entry
 * is handed to the `maintenance` queue, which writes it once the database takes it (LogWriteRetry,
 * LogWriteTask).
 */
@Injectable()
export class ActivityLogService implements OnModuleDestroy {
  private readonly logger = new Logger(ActivityLogService.name);

  private readonly writer: GroupCommitWriter;

  constructor(
    private readonly logs: ActivityLogRepository,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly retry?: LogWriteRetry,
    @Optional() private readonly hooks?: LogBatchHooks,
  ) {
    const dataSource = logs.entries.manager.connection;
    this.writer = new GroupCommitWriter(
      logs.entries,
      (row, error) => this.writeFailed(row, error),
      (rows) => [
        ...[countsStatement(dataSource, rows), targetCountsStatement(dataSource, rows)].filter(
          (statement) => statement !== null,
        ),
        ...(this.hooks?.statements(rows) ?? []),
      ],
    );
  }

  /** Whether the log holds `input` already (its attempt key, else owner, room, type, timestamp and trace id). */
  hasEntry(input: ActivityLogInput): Promise<boolean> {
    return this.logs.hasEntry(input);
  }

  /**
   * Writes one entry; resolves to its id once it is committed, or to null if it could not be
   * written (reported in the service log). Concurrent entries share one INSERT and one commit.
   * Every outbound webhook's outcome is recorded here, so it is also counted (by kind, outcome and
   * error class) and timed here.
   * Text and data are stored in a form every database accepts (`storableJson`): a lone surrogate
   * from a customer's response or a tool's arguments must not cost the entry. An entry the
   * database cannot take is handed to the queue (with its timestamp) before this resolves.
   */
  async record(input: ActivityLogInput): Promise<string | null> {
    const entry: TimedEntry = { ...input, timestamp: input.timestamp ?? new Date() };
    const row = toRow(entry);
    const written = await this.store(row, entry);
    // An attempt whose entry was already there was counted when that entry was written.
    if (!written || written.inserted)
      this.metrics?.observeWebhook({
        kind: row.log_type,
        outcome: row.status,
        errorClass: row.error_class,
        latencyMs: input.latency_ms,
      });
    if (written?.inserted) this.hooks?.committed(row);
    if (!written) await this.retry?.keep(entry);
    return written?.id ?? null;
  }

  /**
   * The `write-log-entry` task: writes a kept entry unless the log holds it already (a job that
   * ran before, its completion lost); rejects while the database cannot take it, to be retried.
   */
  async writeKept(entry: TimedEntry): Promise<void> {
    if (await this.logs.hasEntry(entry)) return;
    if (!(await this.store(toRow(entry), entry)))
      throw new Error('the activity log cannot take the entry yet');
  }

  private async store(row: LogRow, input: ActivityLogInput): Promise<Written | null> {
    try {
      return await this.writer.write(row);
    } catch (error) {
      this.writeFailed(input, error);
      return null;
    }
  }

  /**
   * Resolves once every entry recorded so far is committed or has failed, and the writer's own
   * connections are closed.
   */
  onModuleDestroy(): Promise<void> {
    return this.writer.close();
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

  /** One page of the caller's entries, newest first: see `readPage`. */
  list(userId: string, query: LogsQueryDto): Promise<LogsPageDto> {
    return this.logs.onReplica((reader) => readPage(reader, userId, query));
  }

  /**
   * Every entry of one call (`room_name`) of the caller, oldest first, at most
   * `TIMELINE_MAX_ENTRIES` (a call makes a handful): one range of the `(user_id, room_name,
   * timestamp, id)` index. The call's assistant and version are the first ones an entry names;
   * null when the caller has no entry in that room.
   */
  timeline(userId: string, roomName: string): Promise<LogTimelineDto | null> {
    return this.logs.onReplica(async (reader) => {
      const rows = await reader.findRoom(userId, roomName, TIMELINE_MAX_ENTRIES);
      if (rows.length === 0) return null;
      const versioned = rows.find((row) => 'assistant_version' in (row.request_data ?? {}));
      const version = versioned?.request_data.assistant_version;
      return {
        room_name: roomName,
        assistant_id: (versioned ?? rows.find((row) => row.assistant_id))?.assistant_id ?? null,
        assistant_version: typeof version === 'number' ? version : null,
        entries: rows.map(toLogEntry),
      };
    });
  }

  /** One of the caller's entries as `GET /logs` shows it; null when it is not theirs or does not exist. */
  async findOwned(userId: string, logId: string): Promise<LogEntryDto | null> {
    const row = await this.logs.findOwned(userId, logId);
    return row ? toLogEntry(row) : null;
  }

  /** One of the caller's entries with the whole body its request sent (what a replay sends again). */
  async findSentRequest(userId: string, logId: string): Promise<SentRequestEntry | null> {
    const row = await this.logs.findOwnedWithBody(userId, logId);
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
async function readPage(
  logs: ActivityLogRepository,
  userId: string,
  query: LogsQueryDto,
): Promise<LogsPageDto> {
  const after = query.cursor === undefined ? undefined : decodeLogCursor(query.cursor);
  if (after === null) throw new Error('cursor passed validation but does not decode');
  const skip = after ? 0 : skipOf(query);
  const [found, total] = await Promise.all([
    Number.isSafeInteger(skip + query.limit)
      ? logs.pageIds(userId, query, skip, query.limit + 1, after)
      : Promise.resolve([]),
    logs.countMatching(userId, query),
  ]);
  const ids = found.slice(0, query.limit);
  const byId = new Map((await logs.findByIds(ids)).map((row) => [String(row.id), row]));
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
