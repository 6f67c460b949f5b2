import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateEnum, ValidateText } from '../../common/validation/validation';
import { LIMITS, REALTIME_LLM_DEFAULTS, REALTIME_PROVIDERS } from '../assistant.constants';

/** Realtime LLM config (`assistant_llm_config`); `{}` is valid and takes every default. */
export class RealtimeLlmConfigDto {
  /** Realtime provider; only `gemini` today. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.provider })
  @ValidateEnum(REALTIME_PROVIDERS, { optional: true, nullable: true })
  provider?: string;

  /** Realtime model; default is the provider's live preview model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.model })
  @ValidateText(1, LIMITS.providerField, { optional: true, nullable: true })
  model?: string;

  /** Voice of the realtime model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.voice })
  @ValidateText(1, LIMITS.providerField, { optional: true, nullable: true })
  voice?: string;

  /**
   * Per-assistant key of the realtime provider; when absent the system-level key is used.
   * Returned masked; sending the masked value back on update keeps the stored key, `null` removes it.
   */
  @ValidateText(1, LIMITS.apiKey, { optional: true, nullable: true })
  api_key?: string;
}
