import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantRepository } from '../assistant/assistant.repository';
import { InboundContextStrategyService } from '../inbound-context/inbound-context-strategy.service';
import { ToolRepository } from '../tool/tool.repository';
import { referencedNames, type ReferencingField } from '../common/secrets/secret-reference';
import type { SecretResourceType, SecretUseDto } from './dto/secret-response.dto';
import {
  assistantReferencingFields,
  strategyReferencingFields,
  toolReferencingFields,
} from './referencing-fields';

/**
 * Which fields of a user's tools, strategies, assistants and published versions reference which secret: computed by
 * reading the user's rows (through each module's repository or service) for `{{secret.NAME}}`.
 */
@Injectable()
export class SecretUsage {
  constructor(
    private readonly tools: ToolRepository,
    private readonly strategies: InboundContextStrategyService,
    private readonly assistants: AssistantRepository,
    private readonly versions: AssistantVersionService,
  ) {}

  /**
   * Every use of each secret name the user's resources reference, in resource order. Given `em`,
   * read on its connection inside its transaction: a caller holding a lock must not wait for
   * other pool connections, which the saves queued behind that lock may all hold.
   */
  async byName(userId: string, em?: EntityManager): Promise<Map<string, SecretUseDto[]>> {
    const [tools, strategies, assistants, versions] = await Promise.all([
      this.tools.allOwned(userId, em),
      this.strategies.allOwned(userId, em),
      this.assistants.allOwned(userId, em),
      this.versions.allOwned(userId, em),
    ]);
    const uses = new Map<string, SecretUseDto[]>();
    const add = (type: SecretResourceType, id: string, fields: ReferencingField[]) => {
      for (const { field, value } of fields)
        for (const name of referencedNames(value))
          uses.set(name, [
            ...(uses.get(name) ?? []),
            { resource_type: type, resource_id: id, field },
          ]);
    };
    for (const tool of tools) add('tool', tool.tool_id, toolReferencingFields(tool));
    for (const strategy of strategies)
      add('inbound_context_strategy', strategy.strategy_id, strategyReferencingFields(strategy));
    for (const assistant of assistants)
      add('assistant', assistant.assistant_id, assistantReferencingFields(assistant));
    // A published version keeps its references, so a pinned call needs the secret as much as the
    // working copy does: `v<n>.` names the version, `tools[<tool_id>].` a tool it holds.
    for (const { assistant_id, version, assistant, tools: held } of versions) {
      const fields = [
        ...assistantReferencingFields(assistant),
        ...held.flatMap((tool) =>
          toolReferencingFields(tool).map((f) => ({
            ...f,
            field: `tools[${tool.tool_id}].${f.field}`,
          })),
        ),
      ].map((f) => ({ ...f, field: `v${version}.${f.field}` }));
      add('assistant_version', assistant_id, fields);
    }
    return uses;
  }
}
