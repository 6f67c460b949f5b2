import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssistantDeletion } from '../assistant/assistant-deletion';
import { AssistantCheckEntity } from './assistant-check.entity';
import { TestCaseEntity } from './test-case.entity';

/**
 * When an assistant is deleted, its test cases and the checks that ran them go with it, in the
 * delete's own transaction (`AssistantDeletion`): nothing is left that names an assistant that is gone.
 */
@Injectable()
export class TestCasesDeletedHandler implements OnModuleInit {
  constructor(private readonly deletion: AssistantDeletion) {}

  onModuleInit(): void {
    this.deletion.onDeleted((em, assistantId, ownerId) =>
      deleteTestCases(em, assistantId, ownerId),
    );
  }
}

/** By the owner's indexes (`user_id, assistant_id, …`): the delete locks only these rows. */
async function deleteTestCases(em: EntityManager, assistantId: string, ownerId: string) {
  await em.delete(TestCaseEntity, { user_id: ownerId, assistant_id: assistantId });
  await em.delete(AssistantCheckEntity, { user_id: ownerId, assistant_id: assistantId });
}
