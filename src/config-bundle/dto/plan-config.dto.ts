import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../common/validation/validation';
import { BUNDLE_TYPES } from '../config-bundle.types';

/** Body of `POST /config/plan`. */
export class PlanConfigDto {
  /**
   * The configuration wanted, as `GET /config/export` writes it: `{assistants, tools, strategies,
   * inbound}` keyed by name (`revision` and `secrets` may stay). A part left out changes nothing.
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      tools: {
        opening_hours: {
          tool_description: 'Tells the opening hours.',
          tool_execution_type: 'static_return',
          tool_execution_config: { value: '9-17' },
        },
      },
    },
  })
  @IsObject()
  bundle: Record<string, unknown>;

  /**
   * The `revision` the bundle was made from: 409 when the configuration has changed since. Null or
   * left out: not checked (the default example, so Execute on a fresh install plans).
   */
  @ApiPropertyOptional({ type: String, nullable: true, example: null })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(64)
  base_revision?: string | null;

  /** Also delete what the bundle does not name (only in the parts it holds). Default false. */
  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  prune?: boolean;
}

export class ConfigChangeDto {
  @ApiProperty({ enum: ['create', 'update', 'delete'] })
  action: 'create' | 'update' | 'delete';

  @ApiProperty({ enum: BUNDLE_TYPES })
  resource_type: string;

  /** The resource's name (a mapping's phone number). */
  name: string;

  /** The fields the change sets (every field the bundle gives on a create; none on a delete). */
  fields: string[];
}

export class ConfigPlanDto {
  /** The revision the plan was made at. */
  revision: string;

  /** In the order they would apply. */
  changes: ConfigChangeDto[];
}

/** Body of `POST /config/apply`: the plan's body, with `base_revision` required. */
export class ApplyConfigDto extends OmitType(PlanConfigDto, ['base_revision'] as const) {
  /**
   * The current `revision` (of `GET /config/export` or `POST /config/plan`): 409, nothing written,
   * when the configuration has changed since.
   */
  @ApiProperty({ example: 'q2Xb0m3VxTt1n8bq4kR2Zg' })
  @IsString()
  @MaxLength(64)
  base_revision: string;
}

export class ConfigAppliedDto {
  /** The revision after the changes. */
  revision: string;

  /** How many changes were made (the plan's `changes`, in their order). */
  applied: number;
}
