import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssistantDeletion } from '../assistant/assistant-deletion';
import { InboundMappingEntity } from './inbound-mapping.entity';

/**
 * When an assistant is deleted, its inbound mappings stay, without an assistant, a version pin or
 * a split. Runs inside the delete's transaction (`AssistantDeletion`), so a mapping never points at
 * an assistant that is gone, and the write bumps `updated_at` (the mapping's ETag changes).
 */
@Injectable()
export class AssistantDeletedHandler implements OnModuleInit {
  constructor(private readonly deletion: AssistantDeletion) {}

  onModuleInit(): void {
    this.deletion.onDeleted((em, assistantId) => detachAssistant(em, assistantId));
  }
}

async function detachAssistant(em: EntityManager, assistantId: string): Promise<void> {
  await em.update(
    InboundMappingEntity,
    { assistant_id: assistantId },
    {
      assistant_id: null,
      assistant_version: null,
      assistant_variants: null,
      updated_at: new Date(),
    },
  );
}
