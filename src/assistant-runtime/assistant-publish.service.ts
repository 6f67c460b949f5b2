import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantService } from '../assistant/assistant.service';
import type {
  AssistantVersionDto,
  PublishAssistantDto,
} from '../assistant/dto/assistant-version.dto';
import { isUniqueViolation } from '../database/unique-violation';
import { runTransaction } from '../database/transaction';
import { toToolSnapshot } from '../tool/tool-snapshot';
import { ToolService } from '../tool/tool.service';

/** Publishes racing past the row lock (none on SQLite's queue, none across a failover) retry this often. */
const PUBLISH_ATTEMPTS = 5;

/**
 * Publishing: the assistant and its attached tools as they are now, as the next version. It needs
 * both modules, so it lives above them: the assistant module stores the version, the tool module
 * says what its tools look like published.
 */
@Injectable()
export class AssistantPublishService {
  constructor(
    private readonly assistants: AssistantService,
    private readonly versions: AssistantVersionService,
    private readonly tools: ToolService,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The assistant row is locked while the number is chosen, and the unique (assistant_id, version)
   * index settles any race the lock does not cover: the loser retries with the next number.
   */
  async publish(
    userId: string,
    assistantId: string,
    dto: PublishAssistantDto,
  ): Promise<AssistantVersionDto> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await runTransaction(this.dataSource, async (em) => {
          const assistant = await this.assistants.lockOwned(em, userId, assistantId);
          const tools = await this.tools.attachedTo(em, assistantId);
          return this.versions.insertNext(
            em,
            userId,
            assistant,
            tools.map(toToolSnapshot),
            dto.note ?? null,
          );
        });
      } catch (error) {
        if (attempt < PUBLISH_ATTEMPTS && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }
}
