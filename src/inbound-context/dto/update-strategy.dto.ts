import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CharLength } from '../../common/validation/validators';
import { STRATEGY_TYPES, type StrategyType } from '../inbound-context.constants';
import { UpdateStrategyConfigDto } from './strategy-config.dto';

/** Every field optional; `strategy_config` is merged into the stored config. */
export class UpdateStrategyDto {
  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  strategy_name?: string;

  @IsOptional()
  @IsIn(STRATEGY_TYPES)
  strategy_type?: StrategyType;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateStrategyConfigDto)
  strategy_config?: UpdateStrategyConfigDto;

  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}
