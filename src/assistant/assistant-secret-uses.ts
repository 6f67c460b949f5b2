import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SecretUsage } from '../secret/secret-usage';
import { AssistantRepository } from './assistant.repository';
import { assistantReferencingFields } from './utils/assistant-referencing-fields.util';

/**
 * Tells the secret module which of a user's assistants (working copies) reference a secret, and in
 * which fields. Published versions, which hold tools too, are told by assistant-runtime.
 */
@Injectable()
export class AssistantSecretUses implements OnModuleInit {
  constructor(
    private readonly usage: SecretUsage,
    private readonly assistants: AssistantRepository,
  ) {}

  onModuleInit(): void {
    this.usage.register('assistant', async (userId, em) =>
      (await this.assistants.allOwned(userId, em)).map((assistant) => ({
        resource_id: assistant.assistant_id,
        fields: assistantReferencingFields(assistant),
      })),
    );
  }
}
