import { Injectable } from '@nestjs/common';
import type { EffectiveAssistantConfig } from '../assistant/assistant.types';
import { llmConfigWithDefaults } from '../assistant/utils/apply-assistant-defaults.util';
import { assistantCoreFields } from '../assistant/utils/to-assistant-details.util';
import { toEffectiveConfig } from '../assistant/utils/to-effective-config.util';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantService } from '../assistant/assistant.service';
import { AppException } from '../common/errors/app.exception';
import { SecretReferences, UnresolvedSecretError } from '../secret/secret-references';
import { endCallFunctionDefinition, toFunctionDefinition } from '../tool/tool-function';
import { readToolSnapshots } from '../tool/tool-snapshot';
import { ToolService } from '../tool/tool.service';
import { applyToolDefaults } from '../tool/utils/apply-tool-defaults.util';
import type {
  AssistantRuntimeDto,
  FunctionDefinitionDto,
  ToolBindingDto,
} from './assistant-runtime.dto';

type AttachedTool = Awaited<ReturnType<ToolService['attachedTools']>>[number];

/**
 * The runtime view: what a call worker needs to start a session. Pure over its inputs so the
 * shape is unit-tested without a database.
 */
export function buildRuntimeView(
  config: EffectiveAssistantConfig,
  attached: AttachedTool[],
): AssistantRuntimeDto {
  const realtime = config.assistant_llm_mode === 'realtime';
  const tools: FunctionDefinitionDto[] = attached.map((tool) => ({
    ...toFunctionDefinition(tool),
    side_effect: tool.side_effect,
    defer_until_eot: tool.side_effect === 'irreversible',
  }));
  if (config.assistant_end_call_enabled)
    tools.push({
      ...endCallFunctionDefinition(config.assistant_end_call_trigger_phrase),
      side_effect: 'none',
      defer_until_eot: false,
    });
  const bindings: ToolBindingDto[] = attached.map((tool) => ({
    name: tool.tool_name,
    tool_id: tool.tool_id,
    tool_execution_type: tool.tool_execution_type,
  }));
  return {
    ...assistantCoreFields(config),
    // The realtime model speaks itself: no text-to-speech provider takes part.
    assistant_tts_model: realtime ? null : config.assistant_tts_model,
    assistant_tts_config:
      realtime || !config.assistant_tts_config ? null : { ...config.assistant_tts_config },
    // Both modes run the realtime model (speech-to-text and the language model step in pipeline mode).
    assistant_llm_config: config.assistant_llm_config ?? llmConfigWithDefaults({})!,
    tools,
    tool_bindings: bindings,
    updated_at: new Date(config.updated_at).toISOString(),
  };
}

@Injectable()
export class AssistantRuntimeService {
  constructor(
    private readonly assistants: AssistantService,
    private readonly tools: ToolService,
    private readonly versions: AssistantVersionService,
    private readonly secretRefs: SecretReferences,
  ) {}

  /** The working copy, or with `version` that published version's snapshot (404 when it does not exist). */
  async runtime(
    userId: string,
    assistantId: string,
    version?: number,
  ): Promise<AssistantRuntimeDto> {
    if (version !== undefined) {
      const found = await this.versions.findRestored(userId, assistantId, version);
      const view = buildRuntimeView(
        toEffectiveConfig(found.assistant),
        readToolSnapshots(found.tools).map((tool) => ({
          tool_id: tool.tool_id,
          ...applyToolDefaults(tool),
        })),
      );
      return this.withKeysResolved(userId, view);
    }
    const config = await this.assistants.effectiveConfig(userId, assistantId);
    const view = buildRuntimeView(config, await this.tools.attachedTools(assistantId));
    return this.withKeysResolved(userId, view);
  }

  /**
   * Provider `api_key`s holding `{{secret.NAME}}` resolved to the secrets' current values (a
   * published version keeps its references, so a rotation reaches it too). A secret deleted since
   * a version was published is a 409 naming the field and the secret.
   */
  private async withKeysResolved(
    userId: string,
    view: AssistantRuntimeDto,
  ): Promise<AssistantRuntimeDto> {
    const resolve = async <T extends { api_key?: string }>(
      config: T | null,
      field: string,
    ): Promise<T | null> => {
      if (!config?.api_key) return config;
      try {
        return {
          ...config,
          api_key: await this.secretRefs.resolveProviderKey(userId, config.api_key),
        };
      } catch (error) {
        if (!(error instanceof UnresolvedSecretError)) throw error;
        throw AppException.conflict(`${field} references ${error.message}`, {
          field,
          secret_names: error.secretNames,
        });
      }
    };
    return {
      ...view,
      assistant_tts_config: await resolve(
        view.assistant_tts_config,
        'assistant_tts_config.api_key',
      ),
      assistant_llm_config: (await resolve(
        view.assistant_llm_config,
        'assistant_llm_config.api_key',
      ))!,
    };
  }
}
