import { IsBoolean } from 'class-validator';
import {
  Optional,
  ValidateEnum,
  ValidateNestedObject,
  ValidateText,
} from '../../common/validation/validation';
import {
  STRATEGY_NAME_MAX_LENGTH,
  STRATEGY_TYPES,
  type StrategyType,
} from '../inbound-context.constants';
import { StrategyConfigDto } from './strategy-config.dto';

export class CreateStrategyDto {
  /** Display name, 1-100 characters. */
  @ValidateText(1, STRATEGY_NAME_MAX_LENGTH)
  strategy_name: string;

  /** Always `webhook`. */
  @ValidateEnum(STRATEGY_TYPES)
  strategy_type: StrategyType;

  @ValidateNestedObject(() => StrategyConfigDto)
  strategy_config: StrategyConfigDto;

  /** An inactive strategy is not called at lookup; the lookup is logged as an error. Default true. */
  @Optional({ nullable: true })
  @IsBoolean()
  is_active?: boolean;
}
