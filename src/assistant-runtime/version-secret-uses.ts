import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { assistantReferencingFields } from '../assistant/utils/assistant-referencing-fields.util';
import { SecretUsage } from '../secret/secret-usage';
import { toolReferencingFields } from '../tool/utils/tool-referencing-fields.util';

/**
 * Tells the secret module which published versions reference a secret. A version keeps its
 * references, so a pinned call needs the secret as much as the working copy does. It holds the
 * assistant and its tools, so this lives where both are known (beside publishing): `v<n>.` names
 * the version, `tools[<tool_id>].` a tool it holds.
 */
@Injectable()
export class VersionSecretUses implements OnModuleInit {
  constructor(
    private readonly usage: SecretUsage,
    private readonly versions: AssistantVersionService,
  ) {}

  onModuleInit(): void {
    this.usage.register('assistant_version', async (userId, em) =>
      (await this.versions.allOwned(userId, em)).map(({ assistant_id, version, assistant, tools }) => ({
        resource_id: assistant_id,
        fields: [
          ...assistantReferencingFields(assistant),
          ...tools.flatMap((tool) =>
            toolReferencingFields(tool).map((f) => ({
              ...f,
              field: `tools[${tool.tool_id}].${f.field}`,
            })),
          ),
        ].map((f) => ({ ...f, field: `v${version}.${f.field}` })),
      })),
    );
  }
}
