import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InboundMappingEntity } from './inbound-mapping.entity';

/**
 * Writes to `inbound_mappings` that other modules' use cases make inside their own transaction.
 * Depends on nothing but the caller's `EntityManager`, so a module that the inbound-context
 * module itself depends on (assistant) can provide it without a module cycle.
 */
@Injectable()
export class InboundMappingRepository {
  /** Mappings of a deleted assistant stay, without an assistant, a version pin or a split. */
  async detachAssistant(em: EntityManager, assistantId: string): Promise<void> {
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
}
