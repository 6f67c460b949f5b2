import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  Max,
  Min,
  IsNotIn,
  IsObject,
  Matches,
  ValidateNested,
} from 'class-validator';
import { Optional, ValidateEnum, ValidateText } from '../../common/validation/validation';
import {
  DEDUPE_KEY_PATH_PATTERN,
  DEDUPE_WINDOW_SECONDS,
  END_CALL_FUNCTION_NAME,
  MAX_DEDUPE_KEY_PATHS,
  SIDE_EFFECTS,
  type SideEffect,
  MAX_TOOL_PARAMETERS,
  TOOL_DESCRIPTION_MAX_LENGTH,
  TOOL_EXECUTION_TYPES,
  TOOL_NAME_MAX_LENGTH,
  TOOL_NAME_PATTERN,
} from '../tool.constants';
import type { ToolExecutionType } from '../tool.types';
import {
  StaticReturnExecutionConfigDto,
  UnknownExecutionConfigDto,
  WebhookExecutionConfigDto,
} from './tool-execution-config.dto';
import { ToolParameterDto } from './tool-parameter.dto';
import { IsDedupeKey, markDuplicateParameterNames } from './tool-validators';

export const EXECUTION_CONFIG_CLASS: Record<ToolExecutionType, new () => object> = {
  webhook: WebhookExecutionConfigDto,
  static_return: StaticReturnExecutionConfigDto,
};

function executionConfigClass(type: unknown): new () => object {
  return typeof type === 'string' && Object.hasOwn(EXECUTION_CONFIG_CLASS, type)
    ? EXECUTION_CONFIG_CLASS[type as ToolExecutionType]
    : UnknownExecutionConfigDto;
}

/** Body of `POST /tool/create`, and the rules every stored tool satisfies (updates are re-validated with it). */
@ApiExtraModels(WebhookExecutionConfigDto, StaticReturnExecutionConfigDto)
export class CreateToolDto {
  /** Function name the language model calls: snake_case (`^[a-z][a-z0-9_]*$`), at most 64 characters. `end_call` is reserved. */
  @ApiProperty({ example: 'get_order_status', pattern: TOOL_NAME_PATTERN.source })
  @ValidateText(0, TOOL_NAME_MAX_LENGTH)
  @Matches(TOOL_NAME_PATTERN, {
    message:
      '$property must be snake_case: lower-case letters, digits and underscores, starting with a letter',
  })
  @IsNotIn([END_CALL_FUNCTION_NAME], {
    message: `$property "${END_CALL_FUNCTION_NAME}" is reserved for the built-in end-call tool`,
  })
  tool_name: string;

  /** Explains to the language model what the tool does; 1-500 characters. */
  @ApiProperty({ example: 'Looks up the delivery status of an order by its number.' })
  @ValidateText(1, TOOL_DESCRIPTION_MAX_LENGTH)
  tool_description: string;

  /** Arguments the model passes; default none. */
  @ApiProperty({ type: [ToolParameterDto], default: [] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_TOOL_PARAMETERS)
  @ValidateNested({ each: true })
  @Type(() => ToolParameterDto)
  // Only an array becomes parameter objects. A lone object would be validated as a map of
  // parameters (`tool_parameters.name` errors); it is replaced by a stand-in so IsArray alone reports it.
  @Transform(({ value, obj }) => {
    const sent = (obj as { tool_parameters?: unknown }).tool_parameters;
    // An element that is itself an array would be validated as a nested collection and pass as
    // an empty parameter: a stand-in makes it fail as the non-object it is, at its own index.
    if (Array.isArray(sent)) {
      const elements = (value as unknown[]).map((element, i) =>
        Array.isArray(sent[i]) ? 'array' : element,
      );
      return markDuplicateParameterNames(elements);
    }
    return sent !== null && typeof sent === 'object' ? 'object' : sent;
  })
  tool_parameters?: ToolParameterDto[];

  /** `webhook` POSTs the arguments to a URL; `static_return` returns a fixed value. */
  @ApiProperty({ enum: TOOL_EXECUTION_TYPES, example: 'webhook' })
  @IsIn(TOOL_EXECUTION_TYPES, {
    message: `$property must be one of: ${TOOL_EXECUTION_TYPES.join(', ')}`,
  })
  tool_execution_type: ToolExecutionType;

  /** Shape depends on `tool_execution_type`. */
  @ApiProperty({
    oneOf: [
      { $ref: getSchemaPath(WebhookExecutionConfigDto) },
      { $ref: getSchemaPath(StaticReturnExecutionConfigDto) },
    ],
  })
  @IsObject()
  @ValidateNested()
  @Type((options) =>
    executionConfigClass(
      (options?.object as { tool_execution_type?: unknown } | undefined)?.tool_execution_type,
    ),
  )
  tool_execution_config: WebhookExecutionConfigDto | StaticReturnExecutionConfigDto;

  /**
   * What a call does besides answering: `none` (default; safe to repeat), `idempotent` (every
   * request carries `Idempotency-Key`, the same for every call of one identity) or `irreversible`
   * (one request per identity within `dedupe_window_seconds`; duplicates get the first result).
   */
  @ValidateEnum(SIDE_EFFECTS, { optional: true })
  side_effect?: SideEffect;

  /**
   * Argument paths whose values make a call's identity (with the room and the tool), such as
   * `["slot"]` or `["customer.phone"]`: 1-8 dotted paths, only with `idempotent` or
   * `irreversible`. Default (or `null`): every argument.
   */
  @ApiProperty({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: MAX_DEDUPE_KEY_PATHS,
    items: { type: 'string', pattern: DEDUPE_KEY_PATH_PATTERN.source },
    example: ['slot'],
  })
  @Optional({ nullable: true })
  @IsDedupeKey()
  dedupe_key?: string[] | null;

  /** Seconds a call's identity is remembered (duplicates answered, cancels kept): 60-86400, default 3600. */
  @ApiProperty({
    default: DEDUPE_WINDOW_SECONDS.default,
    minimum: DEDUPE_WINDOW_SECONDS.min,
    maximum: DEDUPE_WINDOW_SECONDS.max,
  })
  @Optional()
  @IsInt()
  @Min(DEDUPE_WINDOW_SECONDS.min)
  @Max(DEDUPE_WINDOW_SECONDS.max)
  dedupe_window_seconds?: number;

  /** When a call that was already sent is cancelled, POST a signed `tool_call.cancelled` to the tool's URL. Default false. */
  @ApiProperty({ default: false })
  @Optional()
  @IsBoolean()
  notify_cancel?: boolean;
}
