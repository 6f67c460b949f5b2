import { ApiProperty } from '@nestjs/swagger';

export const SECRET_RESOURCE_TYPES = [
  'tool',
  'inbound_context_strategy',
  'assistant',
  'assistant_version',
] as const;
export type SecretResourceType = (typeof SECRET_RESOURCE_TYPES)[number];

/** A field of one of your resources that references the secret. */
export class SecretUseDto {
  @ApiProperty({ enum: SECRET_RESOURCE_TYPES, example: 'tool' })
  resource_type: SecretResourceType;

  @ApiProperty({ format: 'uuid', example: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f' })
  resource_id: string;

  /** Full path of the field, e.g. `tool_execution_config.headers.Authorization`. */
  @ApiProperty({ example: 'tool_execution_config.headers.Authorization' })
  field: string;
}

/** A secret as every read shows it: never its value. */
export class SecretDetailsDto {
  @ApiProperty({ example: 'CRM_TOKEN' })
  secret_name: string;

  /** 1 at creation, + 1 at each rotation. */
  @ApiProperty({ example: 2 })
  version: number;

  /** ISO 8601, UTC. */
  @ApiProperty({ example: '2026-11-20T09:30:00.000Z' })
  created_at: string;

  /** ISO 8601, UTC: the last rotation. */
  @ApiProperty({ example: '2026-11-25T14:02:11.000Z' })
  updated_at: string;

  /** When a request or the runtime view last resolved it (to the minute); null until then. */
  @ApiProperty({ type: String, nullable: true, example: '2026-11-26T05:41:00.000Z' })
  last_used_at: string | null;

  /**
   * Where the value may be sent: origins (`https://api.example.com`, `https://*.example.com`) or
   * `["provider"]`; null until the first field that references it binds it.
   */
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['https://api.example.com'],
  })
  allowed_origins: string[] | null;

  /** Every field of your tools, strategies and assistants that references it. */
  used_by: SecretUseDto[];
}

export class SecretListDto {
  items: SecretDetailsDto[];
  total: number;
  page: number;
  limit: number;
}

export class SecretDeletedDto {
  @ApiProperty({ example: 'CRM_TOKEN' })
  secret_name: string;
}
