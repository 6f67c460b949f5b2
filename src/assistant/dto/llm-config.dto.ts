import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { LIMITS, REALTIME_LLM_DEFAULTS, REALTIME_PROVIDERS } from '../assistant.constants';
import { IsText } from './field-rules';

/** Realtime LLM config (`assistant_llm_config`); `{}` is valid and takes every default. */
export class RealtimeLlmConfigDto {
  /** Realtime provider; only `gemini` today. */
  @ApiPropertyOptional({ enum: REALTIME_PROVIDERS, default: REALTIME_LLM_DEFAULTS.provider })
  @IsOptional()
  @IsIn(REALTIME_PROVIDERS)
  provider?: string;

  /** Realtime model; default is the provider's live preview model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.model })
  @IsText(1, LIMITS.providerField, { optional: true })
  model?: string;

  /** Voice of the realtime model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.voice })
  @IsText(1, LIMITS.providerField, { optional: true })
  voice?: string;

  /**
   * Per-assistant key of the realtime provider; when absent the system-level key is used.
   * Returned masked; sending the masked value back on update keeps the stored key, `null` removes it.
   */
  @IsText(1, LIMITS.apiKey, { optional: true })
  api_key?: string;
}
