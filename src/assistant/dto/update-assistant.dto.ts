import { OmitType, PartialType } from '@nestjs/swagger';
import { ValidateNestedObject } from '../../common/validation/validation';
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
  @ValidateNestedObject(() => InteractionConfigDto, { optional: true, nullable: true })
  assistant_interaction_config?: InteractionConfigDto | null;

  /**
   * With the same `assistant_tts_model` (or none sent) the keys merge into the stored config;
   * changing `assistant_tts_model` requires the new provider's full config here. A masked
   * `api_key` (`****...`) keeps the stored key; `null` removes it.
   */
  // Any subset of the provider keys: the merged config is what must be complete.
  @ValidateNestedObject(() => AnyTtsConfigDto, { optional: true, nullable: true })
  assistant_tts_config?: TtsConfigDto | AnyTtsConfigDto | null;

  /**
   * Merged key by key into the stored realtime config. A masked `api_key` keeps the stored key;
   * `null` removes it.
   */
  @ValidateNestedObject(() => RealtimeLlmConfigDto, { optional: true, nullable: true })
  assistant_llm_config?: RealtimeLlmConfigDto | null;
}
