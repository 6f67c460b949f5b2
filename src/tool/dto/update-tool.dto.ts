import { OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { Optional } from '../../common/validation/validation';
import { CreateToolDto } from './create-tool.dto';
import { ToolExecutionConfigPatchDto } from './tool-execution-config.dto';

/**
 * Body of `PATCH /tool/update/:tool_id`: any subset of the create fields. Top-level fields replace
 * the stored ones (`tool_parameters` as a whole); `tool_execution_config` is merged into the stored
 * config when the execution type stays the same (headers key by key) and replaces it otherwise.
 * The merged tool is validated with the create rules.
 */
export class UpdateToolDto extends PartialType(
  OmitType(CreateToolDto, ['tool_execution_config'] as const),
) {
  /** Keys to change; for a webhook tool `headers` is merged key by key (`null` deletes, `****` keeps). */
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => ToolExecutionConfigPatchDto)
  tool_execution_config?: ToolExecutionConfigPatchDto;
}
