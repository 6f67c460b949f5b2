import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS, REALTIME_LLM_DEFAULTS, REALTIME_PROVIDERS } from '../assistant.constants';

/** Realtime LLM config (`assistant_llm_config`); `{}` is valid and takes every default. */
export class RealtimeLlmConfigDto {
  /** Realtime provider; only `gemini` today. */
  @ApiPropertyOptional({ enum: REALTIME_PROVIDERS, default: REALTIME_LLM_DEFAULTS.provider })
  @IsOptional()
  @IsIn(REALTIME_PROVIDERS)
  provider?: string;

  /** Realtime model; default is the provider's live preview model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.model })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.providerField)
  model?: string;

  /** Voice of the realtime model. */
  @ApiPropertyOptional({ default: REALTIME_LLM_DEFAULTS.voice })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.providerField)
  voice?: string;

  /**
   * Per-assistant key of the realtime provider; when absent the system-level key is used.
   * Returned masked; sending the masked value back on update keeps the stored key, `null` removes it.
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.apiKey)
  api_key?: string;
}
