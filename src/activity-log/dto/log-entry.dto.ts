import { ApiProperty } from '@nestjs/swagger';
import { LOG_STATUSES, LOG_TYPES, type LogStatus, type LogType } from '../activity-log.entity';

/** One activity log entry as `GET /logs` returns it. */
export class LogEntryDto {
  /** Identifier of the entry (increasing with insertion order). */
  @ApiProperty({ example: '1042' })
  log_id: string;

  @ApiProperty({ enum: LOG_TYPES })
  log_type: LogType;

  @ApiProperty({ enum: LOG_STATUSES })
  status: LogStatus;

  /** Assistant the entry belongs to; null when the assistant could not be resolved. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  assistant_id: string | null;

  /** Real-time room name of the call. */
  room_name: string;

  /** When the request was made: UTC, ISO 8601 (`2025-01-31T09:30:00.123Z`). */
  @ApiProperty({ example: '2025-01-31T09:30:00.123Z' })
  timestamp: string;

  /** Human-readable summary. */
  message: string;

  /** Outbound request details; header values are never shown in clear. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  request_data: Record<string, unknown>;

  /** What came back (status code, truncated body, summary fields). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  response_data: Record<string, unknown>;

  /** Round-trip latency in milliseconds. */
  @ApiProperty({ type: 'integer' })
  latency_ms: number;
}

/** `data` of `GET /logs`. */
export class LogsPageDto {
  /** Entries, newest first. */
  @ApiProperty({ type: [LogEntryDto] })
  logs: LogEntryDto[];

  /** Entries matching the filters, across all pages. */
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  page: number;

  @ApiProperty({ type: 'integer' })
  limit: number;

  /**
   * Pass as `cursor` to read the next (older) page; null on the last page. A walk by cursor never
   * repeats or skips an entry, even while new entries are written.
   */
  @ApiProperty({ type: String, nullable: true, example: 'MTc2OTg1MTgwMDEyMy4xMDQy' })
  next_cursor: string | null;
}

/** `data` of `GET /logs/timeline/:room_name`: what happened on one call, in order. */
export class LogTimelineDto {
  /** Real-time room name of the call. */
  room_name: string;

  /** The assistant that answered the call, as its entries name it. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  assistant_id: string | null;

  /** The published version that ran (null: the working copy, or not recorded). */
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1 })
  assistant_version: number | null;

  /** Every entry of the call (lookup, tool calls, end-call deliveries), oldest first, at most 1,000. */
  @ApiProperty({ type: [LogEntryDto] })
  entries: LogEntryDto[];
}
