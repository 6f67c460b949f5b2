import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotIn,
  IsObject,
  Matches,
  ValidateNested,
} from 'class-validator';
import { Optional, ValidateText } from '../../common/validation/validation';
import {
  END_CALL_FUNCTION_NAME,
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
import { markDuplicateParameterNames } from './tool-validators';

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
}
