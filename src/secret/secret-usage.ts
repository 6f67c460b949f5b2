import { Injectable } from '@nestjs/common';
import { AssistantRepository } from '../assistant/assistant.repository';
import { InboundContextStrategyService } from '../inbound-context/inbound-context-strategy.service';
import { ToolRepository } from '../tool/tool.repository';
import type { SecretResourceType, SecretUseDto } from './dto/secret-response.dto';
import {
  assistantReferencingFields,
  strategyReferencingFields,
  toolReferencingFields,
} from './referencing-fields';
import { referencedNames, type ReferencingField } from './secret-reference';

/**
 * Which fields of a user's tools, strategies and assistants reference which secret: computed by
 * reading the user's rows (through each module's repository or service) for `{{secret.NAME}}`.
 */
@Injectable()
export class SecretUsage {
  constructor(
    private readonly tools: ToolRepository,
    private readonly strategies: InboundContextStrategyService,
    private readonly assistants: AssistantRepository,
  ) {}

  /** Every use of each secret name the user's resources reference, in resource order. */
  async byName(userId: string): Promise<Map<string, SecretUseDto[]>> {
    const [tools, strategies, assistants] = await Promise.all([
      this.tools.allOwned(userId),
      this.strategies.allOwned(userId),
      this.assistants.allOwned(userId),
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
    return uses;
  }
}
