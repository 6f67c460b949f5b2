import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { Optional, ValidateText } from '../../common/validation/validation';
import {
  BCP47_PATTERN,
  LIMITS,
  SARVAM_DEFAULT_LANGUAGE,
  type TtsProvider,
} from '../assistant.constants';

/** An optional BCP-47 language code (sarvam's `target_language_code`). */
const OptionalLanguageCode = () =>
  applyDecorators(
    ApiProperty({ pattern: BCP47_PATTERN.source }),
    Optional({ nullable: true }),
    IsString(),
    Matches(BCP47_PATTERN, { message: '$property must be a BCP-47 language code such as bn-IN' }),
  );

/** Optional provider key; returned masked (`****` or `****abcd`), never in clear. */
export abstract class ProviderKeyDto {
  /**
   * Optional provider API key for this assistant. Returned masked (`****abcd`); sending the
   * masked value back on update keeps the stored key, `null` removes it.
   * @example "sk_live_0123456789abcdef"
   */
  @ValidateText(1, LIMITS.apiKey, { optional: true, nullable: true })
  api_key?: string;
}

/** `assistant_tts_config` when `assistant_tts_model` is `cartesia`, `elevenlabs` or `mistral`. */
export abstract class VoiceIdTtsConfigDto extends ProviderKeyDto {
  /**
   * Voice identifier at the provider.
   * @example "a0e99841-438c-4a64-b679-ae501e7d6091"
   */
  @ValidateText(1, LIMITS.providerField)
  voice_id: string;
}

/** `assistant_tts_config` when `assistant_tts_model` is `cartesia`. */
export class CartesiaTtsConfigDto extends VoiceIdTtsConfigDto {}

/** `assistant_tts_config` when `assistant_tts_model` is `elevenlabs`. */
export class ElevenLabsTtsConfigDto extends VoiceIdTtsConfigDto {}

/** `assistant_tts_config` when `assistant_tts_model` is `mistral`. */
export class MistralTtsConfigDto extends VoiceIdTtsConfigDto {}

/** `assistant_tts_config` when `assistant_tts_model` is `sarvam`. */
export class SarvamTtsConfigDto extends ProviderKeyDto {
  /**
   * Speaker identifier at the provider.
   * @example "anushka"
   */
  @ValidateText(1, LIMITS.providerField)
  speaker: string;

  /** BCP-47 language code of the speech; default `bn-IN`. */
  @ApiPropertyOptional({
    default: SARVAM_DEFAULT_LANGUAGE,
    example: 'hi-IN',
    pattern: BCP47_PATTERN.source,
  })
  @OptionalLanguageCode()
  target_language_code?: string;
}

/**
 * The config used when `assistant_tts_model` is missing or unknown (that field carries the error),
 * and for partial updates: every known key, all optional, so unknown keys are still rejected.
 * A merged update is then re-validated with the provider's own class.
 */
export class AnyTtsConfigDto extends ProviderKeyDto {
  @ValidateText(1, LIMITS.providerField, { optional: true, nullable: true })
  voice_id?: string;

  @ValidateText(1, LIMITS.providerField, { optional: true, nullable: true })
  speaker?: string;

  @OptionalLanguageCode()
  target_language_code?: string;
}

export type TtsConfigDto =
  CartesiaTtsConfigDto | SarvamTtsConfigDto | ElevenLabsTtsConfigDto | MistralTtsConfigDto;

export const TTS_CONFIG_CLASSES: Record<TtsProvider, new () => TtsConfigDto> = {
  cartesia: CartesiaTtsConfigDto,
  sarvam: SarvamTtsConfigDto,
  elevenlabs: ElevenLabsTtsConfigDto,
  mistral: MistralTtsConfigDto,
};

/** The config class for a sent `assistant_tts_model`, for class-transformer's `@Type`. */
export function ttsConfigClassFor(model: unknown): new () => TtsConfigDto | AnyTtsConfigDto {
  return typeof model === 'string' && Object.hasOwn(TTS_CONFIG_CLASSES, model)
    ? TTS_CONFIG_CLASSES[model as TtsProvider]
    : AnyTtsConfigDto;
}

/**
 * The documented shapes of `assistant_tts_config`, one per distinct provider config (`voice_id`
 * providers share one shape); `assistant_tts_model` says which applies.
 */
export const TTS_CONFIG_SCHEMA_REFS = [
  { $ref: getSchemaPath(VoiceIdTtsConfigDto) },
  { $ref: getSchemaPath(SarvamTtsConfigDto) },
];
