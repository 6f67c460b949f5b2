import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import {
  ValidateEnum,
  ValidateIso8601,
  ValidateText,
} from '../../common/validation/validation';
import {
  AUDIT_ACTIONS,
  AUDIT_RESOURCE_TYPES,
  type AuditAction,
  type AuditResourceType,
} from '../audit.types';

/** Filters of `GET /audit`; every filter is optional and they combine with AND. */
export class AuditQueryDto extends PaginationQueryDto {
  /** Only entries about this kind of record. */
  @ValidateEnum(AUDIT_RESOURCE_TYPES, { optional: true })
  resource_type?: AuditResourceType;

  /** Only entries about this record (its id; a secret's name; the webhook secret's user id). */
  @ValidateText(1, 100, { optional: true })
  resource_id?: string;

  /** Only entries of this action. */
  @ValidateEnum(AUDIT_ACTIONS, { optional: true })
  action?: AuditAction;

  /** Only entries at or after this instant (ISO 8601; a value without a zone is UTC). */
  @ValidateIso8601({ optional: true })
  from?: string;

  /** Only entries at or before this instant (ISO 8601; a value without a zone is UTC). */
  @ValidateIso8601({ optional: true })
  to?: string;
}
