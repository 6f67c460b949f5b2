import { IsIn, IsNotEmpty, IsOptional, IsString, IsUUID } from 'class-validator';
import { CharLength } from '../../common/validation/validators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { LOG_STATUSES, LOG_TYPES, type LogStatus, type LogType } from '../activity-log.entity';
import { IsIsoTimestamp } from './iso-timestamp';

/** Filters of `GET /logs`; every filter is optional and they combine with AND. */
export class LogsQueryDto extends PaginationQueryDto {
  /** Only entries of this type. */
  @IsOptional()
  @IsIn(LOG_TYPES)
  log_type?: LogType;

  /** Only entries of this assistant. */
  @IsOptional()
  @IsUUID('all')
  assistant_id?: string;

  /** Only entries of this real-time room. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @CharLength(0, 255)
  room_name?: string;

  /** Only entries with this outcome. */
  @IsOptional()
  @IsIn(LOG_STATUSES)
  status?: LogStatus;

  /** Only entries at or after this instant (ISO 8601; a value without a zone is UTC). */
  @IsOptional()
  @IsIsoTimestamp()
  from?: string;

  /** Only entries at or before this instant (ISO 8601; a value without a zone is UTC). */
  @IsOptional()
  @IsIsoTimestamp()
  to?: string;
}
