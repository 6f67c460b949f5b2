import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import {
  Optional,
  ValidateEnum,
  ValidateHttpUrl,
  ValidateNestedObject,
  ValidateText,
} from '../../common/validation/validation';
import { DEFAULT_LLM_MODE, LIMITS, LLM_MODES, TTS_PROVIDERS } from '../assistant.constants';
import { InteractionConfigDto } from './interaction-config.dto';
import { RealtimeLlmConfigDto } from './llm-config.dto';
import {
  ttsConfigClassFor,
  type AnyTtsConfigDto,
  type TtsConfigDto,
  TTS_CONFIG_SCHEMA_REFS,
} from './tts-config.dto';

type Plain = Record<string, unknown>;

/** Pipeline mode is the default, so an absent mode counts as pipeline. */
export const isPipelineMode = (o: Plain): boolean =>
  o.assistant_llm_mode === undefined ||
  o.assistant_llm_mode === null ||
  o.assistant_llm_mode === 'pipeline';
export const isRealtimeMode = (o: Plain): boolean => o.assistant_llm_mode === 'realtime';
const endCallRequired = {
  when: (o: Plain): boolean => o.assistant_end_call_enabled === true,
  reason: 'when assistant_end_call_enabled is true',
};

export const TTS_CONFIG_DESCRIPTION =
  'Depends on `assistant_tts_model`: `cartesia`, `elevenlabs` and `mistral` take `{voice_id, api_key?}`; ' +
  '`sarvam` takes `{speaker, target_language_code? (BCP-47, default bn-IN), api_key?}`. Unknown keys are rejected. ' +
  'Required in pipeline mode; in realtime mode it is accepted (and validated) but unused.';

/** Body of `POST /assistant/create`; the same rules re-validate every merged update. */
export class CreateAssistantDto {
  /** Display name, 1-100 characters. */
  @ValidateText(1, LIMITS.name)
  assistant_name: string;

  /** What the assistant is for. */
  @ValidateText(1, LIMITS.description)
  assistant_description: string;

  /** System prompt. May use `{{context.<key>}}` placeholders filled by an inbound context strategy. */
  @ValidateText(1, LIMITS.prompt)
  assistant_prompt: string;

  /** `pipeline` (speech-to-text + LLM, separate TTS provider) or `realtime` (one realtime model). */
  @ApiPropertyOptional({ default: DEFAULT_LLM_MODE })
  @ValidateEnum(LLM_MODES, { optional: true, nullable: true })
  assistant_llm_mode?: string;

  /** Opening response text, used when `assistant_interaction_config.speaks_first` is true; max 200 characters. */
  @ValidateText(0, LIMITS.startInstruction, { optional: true, nullable: true })
  assistant_start_instruction?: string;

  /** Interaction settings; every missing key takes its default. */
  @ValidateNestedObject(() => InteractionConfigDto, { optional: true, nullable: true })
  assistant_interaction_config?: InteractionConfigDto;

  /** Enables the built-in end-call tool. */
  @ApiPropertyOptional({ default: false })
  @Optional({ nullable: true })
  @IsBoolean()
  assistant_end_call_enabled?: boolean;

  // The fields below are required only in some cases; where they are not, `null` counts as absent.

  /** Phrase that triggers the end-call tool; required when `assistant_end_call_enabled` is true. */
  @ValidateText(1, LIMITS.endCallText, { requiredWhen: endCallRequired })
  assistant_end_call_trigger_phrase?: string;

  /** What the agent says before hanging up; required when `assistant_end_call_enabled` is true. */
  @ValidateText(1, LIMITS.endCallText, { requiredWhen: endCallRequired })
  assistant_end_call_agent_message?: string;

  /**
   * http(s) URL that receives the call-ended payload.
   * @example "https://example.com/hooks/call-ended"
   */
  @ValidateHttpUrl(LIMITS.endCallUrl, { optional: true, nullable: true })
  assistant_end_call_url?: string;

  /**
   * Text-to-speech provider. Required in pipeline mode, and whenever `assistant_tts_config` is sent
   * (the config's shape depends on it). Accepted but unused in realtime mode.
   */
  @ValidateEnum(TTS_PROVIDERS, {
    requiredWhen: {
      when: (o) =>
        isPipelineMode(o) ||
        (o.assistant_tts_config !== undefined && o.assistant_tts_config !== null),
      reason: 'in pipeline mode and when assistant_tts_config is sent',
    },
  })
  assistant_tts_model?: string;

  @ValidateNestedObject((o) => ttsConfigClassFor(o?.assistant_tts_model), {
    requiredWhen: { when: isPipelineMode, reason: 'in pipeline mode' },
    schema: { description: TTS_CONFIG_DESCRIPTION, oneOf: TTS_CONFIG_SCHEMA_REFS },
  })
  assistant_tts_config?: TtsConfigDto | AnyTtsConfigDto;

  /**
   * Realtime model settings; required in realtime mode (`{}` takes every default). Accepted and stored
   * in pipeline mode, where it is unused.
   */
  @ValidateNestedObject(() => RealtimeLlmConfigDto, {
    requiredWhen: { when: isRealtimeMode, reason: 'in realtime mode' },
  })
  assistant_llm_config?: RealtimeLlmConfigDto;
}

/** Swagger request examples for `POST /assistant/create`. */
export const CREATE_ASSISTANT_EXAMPLES = {
  pipeline: {
    summary: 'Pipeline mode (separate TTS provider)',
    value: {
      assistant_name: 'Support line',
      assistant_description: 'Answers billing questions for existing customers',
      assistant_prompt:
        'You are a friendly support agent. The caller is {{context.customer_name}}.',
      assistant_llm_mode: 'pipeline',
      assistant_start_instruction: 'Greet the caller and ask how you can help.',
      assistant_interaction_config: {
        speaks_first: true,
        filler_words: true,
        silence_reprompts: true,
        silence_reprompt_interval: 8.5,
        silence_max_reprompts: 2,
      },
      assistant_end_call_enabled: true,
      assistant_end_call_trigger_phrase: 'goodbye',
      assistant_end_call_agent_message: 'Thanks for calling, goodbye!',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091' },
    },
  },
  // Not the default example: saving an end-call URL resolves its host, which needs DNS.
  pipeline_end_call_webhook: {
    summary: 'Pipeline mode, call-ended payload posted to your URL',
    value: {
      assistant_name: 'Support line',
      assistant_description: 'Answers billing questions for existing customers',
      assistant_prompt: 'You are a friendly support agent.',
      assistant_end_call_enabled: true,
      assistant_end_call_trigger_phrase: 'goodbye',
      assistant_end_call_agent_message: 'Thanks for calling, goodbye!',
      assistant_end_call_url: 'https://example.com/hooks/call-ended',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091' },
    },
  },
  pipeline_sarvam: {
    summary: 'Pipeline mode with sarvam (speaker + language)',
    value: {
      assistant_name: 'Bengali helpline',
      assistant_description: 'Bengali-speaking reception',
      assistant_prompt: 'You are a helpful receptionist.',
      assistant_tts_model: 'sarvam',
      assistant_tts_config: { speaker: 'anushka', target_language_code: 'bn-IN' },
    },
  },
  realtime: {
    summary: 'Realtime mode (one realtime model; TTS fields are accepted but unused)',
    value: {
      assistant_name: 'Realtime concierge',
      assistant_description: 'Books tables at the restaurant',
      assistant_prompt: 'You are a concise concierge.',
      assistant_llm_mode: 'realtime',
      assistant_llm_config: {
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Puck',
      },
      assistant_interaction_config: { speaks_first: false, silence_reprompts: true },
    },
  },
};
