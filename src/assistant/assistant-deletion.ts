import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A change another module makes, in the delete's own transaction, when an assistant goes. */
export type AssistantDeletedHandler = (
  em: EntityManager,
  assistantId: string,
  ownerId: string,
) => Promise<void>;

/**
 * The assistant delete's one seam to the modules above it. Those modules hold rows that point at an
 * assistant (inbound mappings); the assistant module must not know them, so each registers a
 * handler at start-up and `AssistantService.remove` runs every handler inside its transaction,
 * before the assistant row goes: all of it commits or none of it does.
 */
@Injectable()
export class AssistantDeletion {
  private readonly handlers: AssistantDeletedHandler[] = [];

  /** Registers a handler (a module's `onModuleInit`). */
  onDeleted(handler: AssistantDeletedHandler): void {
    this.handlers.push(handler);
  }

  /** Runs every handler, one after the other, in the caller's transaction. */
  async deleted(em: EntityManager, assistantId: string, ownerId: string): Promise<void> {
    for (const handler of this.handlers) await handler(em, assistantId, ownerId);
  }
}
