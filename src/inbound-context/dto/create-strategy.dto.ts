import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { CharLength } from '../../common/validation/validators';
import { STRATEGY_TYPES, type StrategyType } from '../inbound-context.constants';
import { StrategyConfigDto } from './strategy-config.dto';

export class CreateStrategyDto {
  /** Display name, 1-100 characters. */
  @IsString()
  @CharLength(1, 100)
  strategy_name: string;

  /** Always `webhook`. */
  @IsIn(STRATEGY_TYPES)
  strategy_type: StrategyType;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StrategyConfigDto)
  strategy_config: StrategyConfigDto;

  /** An inactive strategy is not called at lookup; the lookup is logged as an error. Default true. */
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}
