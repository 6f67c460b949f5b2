import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { restoreAssistant, type ToolSnapshot } from '../assistant/assistant-snapshot';
import { AssistantVersionEntity } from '../assistant/assistant-version.entity';
import type { AssistantRecord } from '../assistant/assistant.repository';

/** What a call-time job needs of a published version: its assistant and its tools as published. */
export interface PublishedVersion {
  version: number;
  assistant: AssistantRecord;
  tools: ToolSnapshot[];
}

/** Reads published versions for the call-time jobs (a version is immutable once published). */
@Injectable()
export class PublishedVersions {
  constructor(
    @InjectRepository(AssistantVersionEntity)
    private readonly versions: Repository<AssistantVersionEntity>,
  ) {}

  /** The owner's version of the assistant, or null when it does not exist. */
  async find(
    userId: string,
    assistantId: string,
    version: number,
  ): Promise<PublishedVersion | null> {
    const found = await this.versions.findOneBy({
      assistant_id: assistantId,
      user_id: userId,
      version,
    });
    if (!found) return null;
    return { version, assistant: restoreAssistant(found.assistant), tools: found.tools };
  }
}
