import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SecretUsage } from '../secret/secret-usage';
import { ToolRepository } from './tool.repository';
import { toolReferencingFields } from './utils/tool-referencing-fields.util';

/** Tells the secret module which of a user's tools reference a secret, and in which fields. */
@Injectable()
export class ToolSecretUses implements OnModuleInit {
  constructor(
    private readonly usage: SecretUsage,
    private readonly tools: ToolRepository,
  ) {}

  onModuleInit(): void {
    this.usage.register('tool', async (userId, em) =>
      (await this.tools.allOwned(userId, em)).map((tool) => ({
        resource_id: tool.tool_id,
        fields: toolReferencingFields(tool),
      })),
    );
  }
}
