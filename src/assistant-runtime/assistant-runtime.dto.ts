import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { REALTIME_PROVIDERS, TTS_PROVIDERS } from '../assistant/assistant.constants';
import { AssistantCoreDto } from '../assistant/dto/assistant-response.dto';
import { SIDE_EFFECTS, TOOL_EXECUTION_TYPES, TOOL_PARAMETER_TYPES } from '../tool/tool.constants';

/** JSON Schema of one argument. */
export class FunctionParameterSchemaDto {
  @ApiProperty({ enum: TOOL_PARAMETER_TYPES })
  type: string;
  description?: string;
  /** Allowed values (string parameters only). */
  enum?: string[];
  /** `{}` on array parameters: items of any type. */
  @ApiProperty({ required: false, type: Object, example: {} })
  items?: Record<string, never>;
}

/** JSON Schema object describing the arguments. */
@ApiExtraModels(FunctionParameterSchemaDto)
export class FunctionParametersDto {
  @ApiProperty({ enum: ['object'] })
  type: 'object';
  @ApiProperty({
    type: Object,
    additionalProperties: { $ref: getSchemaPath(FunctionParameterSchemaDto) },
    example: { order_id: { type: 'string', description: 'The order number' } },
  })
  properties: Record<string, FunctionParameterSchemaDto>;
  /** Names of the required arguments. */
  required: string[];
}

export class FunctionDto {
  /** The tool name (or `end_call` for the built-in end-call function). */
  name: string;
  description: string;
  parameters: FunctionParametersDto;
}

/** A tool as a language model receives it (OpenAI-style function definition). */
export class FunctionDefinitionDto {
  @ApiProperty({ enum: ['function'] })
  type: 'function';
  function: FunctionDto;
  /** The tool's `side_effect` (`none` for the built-in `end_call`). */
  @ApiProperty({ enum: SIDE_EFFECTS })
  side_effect: string;
  /**
   * True for an `irreversible` tool: a call stack that can hold a call until the caller's turn
   * ends should do so, so an interruption does not fire it twice.
   */
  defer_until_eot: boolean;
}

/** Which stored tool a function name stands for: the `tool_id` a `tool-call` job needs. */
export class ToolBindingDto {
  /** Function name, as in `tools[].function.name`. */
  name: string;
  @ApiProperty({ format: 'uuid' })
  tool_id: string;
  @ApiProperty({ enum: TOOL_EXECUTION_TYPES })
  tool_execution_type: string;
}

/** Realtime model settings with defaults filled in, `api_key` in clear. */
export class RuntimeLlmConfigDto {
  @ApiProperty({ enum: REALTIME_PROVIDERS })
  provider: string;
  model: string;
  voice: string;
  /** The assistant's own provider key, in clear; absent when the system-level key of the provider applies. */
  api_key?: string;
}

/**
 * Everything a call worker needs to start a session: the effective configuration (defaults
 * filled in, realtime overrides applied, provider keys IN CLEAR) and the tools as function
 * definitions.
 */
export class AssistantRuntimeDto extends AssistantCoreDto {
  /** Null in realtime mode: the realtime model speaks itself. */
  @ApiProperty({ enum: TTS_PROVIDERS, nullable: true, type: String })
  assistant_tts_model: string | null;
  /** The provider's config with its `api_key` in clear; null in realtime mode. */
  @ApiProperty({ nullable: true, type: Object, additionalProperties: { type: 'string' } })
  assistant_tts_config: Record<string, string> | null;
  /** The realtime model (speech-to-text and the language model step in pipeline mode, everything in realtime mode). */
  assistant_llm_config: RuntimeLlmConfigDto;
  /** Attached tools, oldest attachment first, then the built-in `end_call` when enabled. */
  @ApiProperty({ type: [FunctionDefinitionDto] })
  tools: FunctionDefinitionDto[];
  /** Function name → tool id for the attached tools (not for `end_call`), same order as `tools`. */
  @ApiProperty({ type: [ToolBindingDto] })
  tool_bindings: ToolBindingDto[];
  /** ISO 8601, UTC. */
  updated_at: string;
}
