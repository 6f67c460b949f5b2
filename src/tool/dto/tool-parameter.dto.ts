import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
} from 'class-validator';
import { AsSent, Optional, ValidateText } from '../../common/validation/validation';
import {
  MAX_ENUM_VALUES,
  PARAMETER_DESCRIPTION_MAX_LENGTH,
  PARAMETER_NAME_MAX_LENGTH,
  PARAMETER_NAME_PATTERN,
  TOOL_PARAMETER_TYPES,
  type ToolParameterType,
} from '../tool.constants';
import { IsOnlyOnStringParameter, IsUniqueParameterName } from './tool-validators';

/** One argument the language model passes when it calls the tool. */
export class ToolParameterDto {
  /** Argument name: letters, digits and underscores, not starting with a digit; unique within the tool. */
  @ApiProperty({ example: 'order_id', pattern: PARAMETER_NAME_PATTERN.source })
  @ValidateText(0, PARAMETER_NAME_MAX_LENGTH)
  @Matches(PARAMETER_NAME_PATTERN, {
    message:
      '$property must start with a letter or underscore and contain only letters, digits and underscores',
  })
  @IsUniqueParameterName()
  name: string;

  /** JSON type of the argument. */
  @ApiProperty({ enum: TOOL_PARAMETER_TYPES, example: 'string' })
  @IsIn(TOOL_PARAMETER_TYPES, {
    message: `$property must be one of: ${TOOL_PARAMETER_TYPES.join(', ')}`,
  })
  type: ToolParameterType;

  /** What the argument means, for the language model. */
  @ApiProperty({ example: 'The order number the caller reads out' })
  @ValidateText(0, PARAMETER_DESCRIPTION_MAX_LENGTH, { optional: true })
  description?: string;

  /** Whether the model must always pass the argument. */
  @ApiProperty({ default: true })
  @Optional()
  @IsBoolean()
  required?: boolean;

  /** Allowed values; only for `string` parameters, non-empty, strings only. */
  @ApiProperty({ type: [String], example: ['standard', 'express'] })
  @Optional()
  @IsOnlyOnStringParameter()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ENUM_VALUES)
  @ArrayUnique()
  @IsString({ each: true })
  @AsSent()
  enum?: string[];
}
