import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  In,
  type EntityManager,
  type ObjectLiteral,
  type Repository,
  type SelectQueryBuilder,
} from 'typeorm';
import { restoreAssistant, type PublishedTool } from './assistant-snapshot';
import { AssistantVersionEntity } from './assistant-version.entity';
import type { AssistantEntity } from './assistant.entity';

/** What a call-time job needs of a published version: its assistant and its tools as published. */
export interface PublishedVersion {
  version: number;
  assistant: AssistantEntity;
  tools: PublishedTool[];
}

/** Reads published versions for call time: lookups, tool calls, end-call deliveries (a version never changes). */
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

  /**
   * The owner's versions of the assistant among `numbers` (those that exist), in one query; given
   * `em`, read through it.
   */
  async findMany(
    userId: string,
    assistantId: string,
    numbers: number[],
    em?: EntityManager,
  ): Promise<PublishedVersion[]> {
    if (!numbers.length) return [];
    const versions = em?.getRepository(AssistantVersionEntity) ?? this.versions;
    const rows = await versions.find({
      select: { version: true, assistant: true, tools: true },
      where: { assistant_id: assistantId, user_id: userId, version: In(numbers) },
    });
    return rows.map((row) => ({
      version: Number(row.version),
      assistant: restoreAssistant(row.assistant),
      tools: row.tools,
    }));
  }

  /**
   * Left-joins, into another module's query, the version `on` names (the row mapped onto `mapTo`
   * under `alias`), so a read that needs it stays one statement without naming this table.
   */
  static joinVersion<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    mapTo: string,
    alias: string,
    on: string,
  ): SelectQueryBuilder<T> {
    return qb.leftJoinAndMapOne(mapTo, AssistantVersionEntity, alias, on);
  }
}
