import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateEnum } from '../../common/validation/validation';

export const EXPORT_FORMATS = ['json', 'yaml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Query of `GET /config/export`. */
export class ConfigExportQueryDto {
  /** `yaml` answers the bundle as YAML (as does `Accept: application/yaml`); default JSON. */
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'json' })
  @ValidateEnum(EXPORT_FORMATS, { optional: true })
  format?: ExportFormat;
}

const RESOURCES = {
  type: 'object',
  additionalProperties: { type: 'object', additionalProperties: true },
} as const;

/** One tenant's configuration: resources keyed by name, references by name, secrets by name only. */
export class ConfigBundleDto {
  /** Opaque; changes with every configuration change of the caller. */
  @ApiProperty({ example: 'q2Xb0m3VxTt1n8bq4kR2Zg' })
  revision: string;

  /** Assistants by `assistant_name`: their fields as `GET /assistant/details` shows them, `tools` by name. */
  @ApiProperty({ ...RESOURCES, example: {} })
  assistants: Record<string, Record<string, unknown>>;

  /** Tools by `tool_name`: their fields as `GET /tool/details` shows them. */
  @ApiProperty({ ...RESOURCES, example: {} })
  tools: Record<string, Record<string, unknown>>;

  /** Strategies by `strategy_name`: their fields as `GET /inbound_context_strategy/details` shows them. */
  @ApiProperty({ ...RESOURCES, example: {} })
  strategies: Record<string, Record<string, unknown>>;

  /** Inbound mappings by phone number: `assistant` and `strategy` by name (null: none). */
  @ApiProperty({ ...RESOURCES, example: {} })
  inbound: Record<string, Record<string, unknown>>;

  /** The names of your secrets (never their values). */
  @ApiProperty({ type: [String], example: ['CRM_TOKEN'] })
  secrets: string[];
}
