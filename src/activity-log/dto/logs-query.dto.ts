import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { ROOM_NAME_MAX_LENGTH } from '../../contracts/limits';
import {
  Optional,
  ValidateEnum,
  ValidateIso8601,
  ValidateText,
  ValidateUuid,
} from '../../common/validation/validation';
import { ERROR_CLASSES, type ErrorClass } from '../../contracts/error-class';
import { TRACE_ID_PATTERN } from '../../telemetry/trace-context';
import { POLICY_OUTCOMES, type PolicyOutcome } from '../../inbound-policy/policy.types';
import { LOG_STATUSES, LOG_TYPES, type LogStatus, type LogType } from '../activity-log.entity';
import { decodeLogCursor } from '../log-cursor';

/** Filters of `GET /logs`; every filter is optional and they combine with AND. */
export class LogsQueryDto extends PaginationQueryDto {
  /** Only entries of this type. */
  @ValidateEnum(LOG_TYPES, { optional: true })
  log_type?: LogType;

  /** Only entries of this assistant. */
  @ValidateUuid({ optional: true })
  assistant_id?: string;

  /** Only entries of this real-time room. */
  @ValidateText(1, ROOM_NAME_MAX_LENGTH, { optional: true })
  room_name?: string;

  /** Only entries with this outcome. */
  @ValidateEnum(LOG_STATUSES, { optional: true })
  status?: LogStatus;

  /** Only failed entries of this class (`timeout`, `auth`, ...; successes have none). */
  @ValidateEnum(ERROR_CLASSES, { optional: true })
  error_class?: ErrorClass;

  /** Only lookups whose number's inbound policy decided this (`open`, `closed`, `denied`, `overflow`). */
  @ValidateEnum(POLICY_OUTCOMES, { optional: true })
  policy_outcome?: PolicyOutcome;

  /** Only entries of this W3C trace (the trace id of the job's `traceparent`: 32 lowercase hex digits). */
  @ApiPropertyOptional({ type: String, pattern: TRACE_ID_PATTERN.source })
  @Optional()
  @ValidateBy({
    name: 'isTraceId',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && TRACE_ID_PATTERN.test(value),
      defaultMessage: () => 'trace_id must be 32 lowercase hexadecimal digits',
    },
  })
  trace_id?: string;

  /** Only entries at or after this instant (ISO 8601; a value without a zone is UTC). */
  @ValidateIso8601({ optional: true })
  from?: string;

  /** Only entries at or before this instant (ISO 8601; a value without a zone is UTC). */
  @ValidateIso8601({ optional: true })
  to?: string;

  /** `next_cursor` of the previous page: continue after it (then `page` is ignored). */
  @ApiPropertyOptional({ type: String, maxLength: 64 })
  @Optional()
  @ValidateBy({
    name: 'isLogCursor',
    validator: {
      validate: (value: unknown) => decodeLogCursor(value) !== null,
      defaultMessage: () => 'cursor must be the next_cursor of an earlier GET /logs answer',
    },
  })
  cursor?: string;
}

/** Path of `GET /logs/timeline/:room_name`. */
export class LogTimelineParamsDto {
  /** Real-time room name of the call. */
  @ValidateText(1, ROOM_NAME_MAX_LENGTH)
  room_name: string;
}

/** Query of `GET /logs/health`. Hours are UTC; the counters are kept per hour. */
export class LogHealthQueryDto {
  /** Start of the range (ISO 8601; default 24 hours before `to`). Counted from the start of its hour. */
  @ValidateIso8601({ optional: true })
  from?: string;

  /** End of the range (ISO 8601; default now). Counted to the end of its hour. */
  @ValidateIso8601({ optional: true })
  to?: string;

  /** Only entries of this type. */
  @ValidateEnum(LOG_TYPES, { optional: true })
  log_type?: LogType;
}
