import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, Max, Min } from 'class-validator';
import { Optional } from '../../common/validation/validation';
import { INTERACTION_DEFAULTS, LIMITS } from '../assistant.constants';

/** Interaction settings (`assistant_interaction_config`). Types are strict: `"true"` is not a boolean. */
export class InteractionConfigDto {
  /** When true the assistant speaks first (using `assistant_start_instruction`), in both modes. */
  @ApiPropertyOptional({ default: INTERACTION_DEFAULTS.speaks_first })
  @Optional({ nullable: true })
  @IsBoolean()
  speaks_first?: boolean;

  /** Filler words while the user speaks; pipeline mode only (stored false in realtime mode). */
  @ApiPropertyOptional({ default: INTERACTION_DEFAULTS.filler_words })
  @Optional({ nullable: true })
  @IsBoolean()
  filler_words?: boolean;

  /** Reprompt the user during prolonged silence. */
  @ApiPropertyOptional({ default: INTERACTION_DEFAULTS.silence_reprompts })
  @Optional({ nullable: true })
  @IsBoolean()
  silence_reprompts?: boolean;

  /** Seconds of silence before a reprompt, 1.0-60.0. */
  @ApiPropertyOptional({ default: INTERACTION_DEFAULTS.silence_reprompt_interval })
  @Optional({ nullable: true })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(LIMITS.repromptIntervalMin)
  @Max(LIMITS.repromptIntervalMax)
  silence_reprompt_interval?: number;

  /** Reprompts before the session ends, integer 0-5. */
  @ApiPropertyOptional({ type: 'integer', default: INTERACTION_DEFAULTS.silence_max_reprompts })
  @Optional({ nullable: true })
  @IsInt()
  @Min(LIMITS.maxRepromptsMin)
  @Max(LIMITS.maxRepromptsMax)
  silence_max_reprompts?: number;
}
