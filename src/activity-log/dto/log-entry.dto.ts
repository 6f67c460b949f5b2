import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../common/pagination/page-meta.dto';
import { ERROR_CLASSES, type ErrorClass } from '../../contracts/error-class';
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

  /**
   * Why the request failed: `timeout`, `network`, `http_4xx`, `auth` (401/403), `http_5xx`,
   * `invalid_response`, `blocked` (address refused), `config` (nothing to call or not allowed to),
   * `internal`; null on success.
   */
  @ApiProperty({ enum: ERROR_CLASSES, nullable: true, type: String })
  error_class: ErrorClass | null;

  /** W3C trace id the request was sent under (its `traceparent`); null for entries written before traces. */
  @ApiProperty({ type: String, nullable: true, pattern: '^[0-9a-f]{32}$' })
  trace_id: string | null;

  /** The entry this request replayed (`POST /logs/replay/:log_id`); null for a job's own request. */
  @ApiProperty({ type: String, nullable: true, example: null })
  replay_of: string | null;
}

/** `data` of `GET /logs`. */
export class LogsPageDto extends PageMetaDto {
  /** Entries, newest first. */
  @ApiProperty({ type: [LogEntryDto] })
  logs: LogEntryDto[];

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

/** Latency percentiles of one endpoint, from a fixed histogram (bucket bounds in log-targets.ts). */
export class LatencyPercentilesDto {
  /** Median latency in ms; null without attempts. */
  @ApiProperty({ type: 'integer', nullable: true })
  p50: number | null;

  /** 95th percentile latency in ms; null without attempts. */
  @ApiProperty({ type: 'integer', nullable: true })
  p95: number | null;
}

/** One URL origin the caller's requests went to, over the range. */
export class LogHealthTargetDto {
  /** Scheme, host and port of the URL (`https://crm.example.com`). */
  @ApiProperty({ example: 'https://crm.example.com' })
  target: string;

  /** The kinds of request sent there. */
  @ApiProperty({ enum: LOG_TYPES, isArray: true })
  log_types: LogType[];

  /** Entries (requests, or refusals before one was sent) for this origin. */
  @ApiProperty({ type: 'integer' })
  attempts: number;

  /** Entries with `status: "error"`. */
  @ApiProperty({ type: 'integer' })
  errors: number;

  /** `errors / attempts`, 0-1. */
  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, example: 0.25 })
  error_rate: number;

  /** Errors per class; classes without errors are left out. */
  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(ERROR_CLASSES.map((c) => [c, { type: 'integer' }])),
    additionalProperties: false,
    example: { http_5xx: 3, timeout: 1 },
  })
  by_error_class: Partial<Record<ErrorClass, number>>;

  @ApiProperty({ type: LatencyPercentilesDto })
  latency_ms: LatencyPercentilesDto;

  /** Latest success (ISO 8601, UTC); null when none in the range. */
  @ApiProperty({ type: String, nullable: true, example: '2025-01-31T09:30:00.123Z' })
  last_success_at: string | null;

  /** Latest error (ISO 8601, UTC); null when none in the range. */
  @ApiProperty({ type: String, nullable: true, example: '2025-01-31T09:31:02.456Z' })
  last_error_at: string | null;
}

/** `data` of `GET /logs/health`. */
export class LogHealthDto {
  /** Start of the range counted: the start of `from`'s UTC hour. */
  @ApiProperty({ example: '2025-01-30T09:00:00.000Z' })
  from: string;

  /** End of the range counted: the end of `to`'s UTC hour. */
  @ApiProperty({ example: '2025-01-31T10:00:00.000Z' })
  to: string;

  /** One item per origin, most errors first (then most attempts, then by name). */
  targets: LogHealthTargetDto[];
}
