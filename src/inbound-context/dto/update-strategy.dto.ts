import { OmitType, PartialType } from '@nestjs/swagger';
import { ValidateNestedObject } from '../../common/validation/validation';
import { CreateStrategyDto } from './create-strategy.dto';
import { UpdateStrategyConfigDto } from './strategy-config.dto';

/**
 * Every field optional (`null` counts as absent); the merged strategy is re-validated with the
 * create rules. `strategy_config` is merged into the stored config.
 */
export class UpdateStrategyDto extends PartialType(
  OmitType(CreateStrategyDto, ['strategy_config'] as const),
) {
  @ValidateNestedObject(() => UpdateStrategyConfigDto, { optional: true, nullable: true })
  strategy_config?: UpdateStrategyConfigDto;
}
