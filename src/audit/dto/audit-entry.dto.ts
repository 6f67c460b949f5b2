import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../common/pagination/page-meta.dto';
import {
  AUDIT_ACTIONS,
  AUDIT_RESOURCE_TYPES,
  type AuditAction,
  type AuditResourceType,
} from '../audit.types';

/** Any JSON value: a field's value as the record's reads show it. */
const ANY_VALUE = {
  description: 'The value as reads show it (secrets as `****`); null when the field was absent',
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { enum: [null] },
  ],
};

/** One field that changed. */
export class AuditChangeDto {
  /** Dotted path of the field, as in the record's details (`strategy_config.headers.Authorization`). */
  field: string;

  @ApiProperty(ANY_VALUE)
  before: unknown;

  @ApiProperty(ANY_VALUE)
  after: unknown;
}

/** Who made a change. */
export class AuditActorDto {
  /** The user whose API key made the change; null for the operator (`ADMIN_API_KEY`). Absent with `system`. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid', required: false })
  user_id?: string | null;

  /** The API key that made the change; null for the operator. Absent with `system`. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid', required: false })
  api_key_id?: string | null;

  /** A change the service made itself (`guardrail`: a split ended); the only field then. */
  @ApiProperty({ type: String, required: false, example: 'guardrail' })
  system?: string;
}

/** One change to the caller's configuration. */
export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' })
  audit_id: string;

  /** When the change was committed: UTC, ISO 8601. */
  @ApiProperty({ example: '2025-01-31T09:30:00.123Z' })
  timestamp: string;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action: AuditAction;

  @ApiProperty({ enum: AUDIT_RESOURCE_TYPES })
  resource_type: AuditResourceType;

  /** The record's id (a secret's name; the user's id for the webhook secret). */
  resource_id: string;

  actor: AuditActorDto;

  /** The request's `X-Request-Id`; null when no HTTP request made the change. */
  @ApiProperty({ type: String, nullable: true })
  request_id: string | null;

  /** The fields that changed: every field of a created or deleted record. */
  @ApiProperty({ type: [AuditChangeDto] })
  changes: AuditChangeDto[];
}

/** `data` of `GET /audit`. */
export class AuditPageDto extends PageMetaDto {
  /** Entries, newest first. */
  items: AuditEntryDto[];
}
