import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CreateAssistantDto } from './create-assistant.dto';
import { InteractionConfigDto } from './interaction-config.dto';
import { RealtimeLlmConfigDto } from './llm-config.dto';
import { AnyTtsConfigDto, type TtsConfigDto } from './tts-config.dto';

/**
 * Body of `PATCH /assistant/update/:assistant_id`. Every field is optional; `null` clears an
 * optional field (or resets it to its default). The merged record is re-validated with the
 * create rules, so the same 400s apply to the result.
 */
export class UpdateAssistantDto extends PartialType(
  OmitType(CreateAssistantDto, [
    'assistant_interaction_config',
    'assistant_tts_config',
    'assistant_llm_config',
  ] as const),
) {
  /** Merged key by key into the stored settings; a `null` key goes back to its default. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InteractionConfigDto)
  assistant_interaction_config?: InteractionConfigDto | null;

  /**
   * With the same `assistant_tts_model` (or none sent) the keys merge into the stored config;
   * changing `assistant_tts_model` requires the new provider's full config here. A masked
   * `api_key` (`****...`) keeps the stored key; `null` removes it.
   */
  @ApiPropertyOptional({
    // Any subset of the provider keys: the merged config is what must be complete.
    type: () => AnyTtsConfigDto,
    nullable: true,
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AnyTtsConfigDto)
  assistant_tts_config?: TtsConfigDto | AnyTtsConfigDto | null;

  /**
   * Merged key by key into the stored realtime config. A masked `api_key` keeps the stored key;
   * `null` removes it.
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RealtimeLlmConfigDto)
  assistant_llm_config?: RealtimeLlmConfigDto | null;
}
