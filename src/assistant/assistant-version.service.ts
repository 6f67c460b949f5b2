import { randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ReplicaReads } from '../database/replica-reads';
import { AppException } from '../common/errors/app.exception';
import {
  type Paginated,
  type PaginationQueryDto,
  skipOf,
} from '../common/pagination/pagination-query.dto';
import { toIso } from '../common/time/iso';
import { AuditTrail } from '../audit/audit-trail';
import { restoreAssistant, type AssistantSnapshot, type PublishedTool } from './assistant-snapshot';
import { AssistantVersionEntity } from './assistant-version.entity';
import { toAssistantDetails } from './utils/to-assistant-details.util';
import type { AssistantEntity } from './assistant.entity';
import type { AssistantDetailsDto } from './dto/assistant-response.dto';
import { AssistantService } from './assistant.service';
import type { AssistantVersionDto } from './dto/assistant-version.dto';

export function toVersionDto(entity: AssistantVersionEntity): AssistantVersionDto {
  return {
    assistant_id: entity.assistant_id,
    version: Number(entity.version),
    published_at: toIso(entity.published_at),
    note: entity.note ?? null,
  };
}

function snapshotOf(assistant: AssistantEntity): AssistantSnapshot {
  return {
    ...assistant,
    created_at: toIso(assistant.created_at),
    updated_at: toIso(assistant.updated_at),
  };
}

/** Published, immutable versions of a user's assistants. */
@Injectable()
export class AssistantVersionService {
  constructor(
    @InjectRepository(AssistantVersionEntity)
    private readonly versions: Repository<AssistantVersionEntity>,
    private readonly assistants: AssistantService,
    private readonly audit: AuditTrail,
    @Optional() private readonly replicas?: ReplicaReads,
  ) {}

  async list(
    userId: string,
    assistantId: string,
    query: PaginationQueryDto,
  ): Promise<Paginated<AssistantVersionDto>> {
    const where = { assistant_id: assistantId, user_id: userId };
    const [, rows, total] = await Promise.all([
      this.assistants.findOwned(userId, assistantId),
      this.versions.find({
        select: {
          version_id: true,
          assistant_id: true,
          version: true,
          note: true,
          published_at: true,
        },
        where,
        order: { version: 'DESC' },
        skip: skipOf(query),
        take: query.limit,
      }),
      this.versions.count({ where }),
    ]);
    return { items: rows.map(toVersionDto), total, page: query.page, limit: query.limit };
  }

  /**
   * Every published version of the caller's assistants, oldest first: what each one holds; given
   * `em`, read inside its transaction.
   */
  allOwned(
    userId: string,
    em?: EntityManager,
  ): Promise<Pick<AssistantVersionEntity, 'assistant_id' | 'version' | 'assistant' | 'tools'>[]> {
    return (em?.getRepository(AssistantVersionEntity) ?? this.versions).find({
      select: { assistant_id: true, version: true, assistant: true, tools: true },
      where: { user_id: userId },
      order: { published_at: 'ASC', version: 'ASC' },
    });
  }

  /**
   * One version of the caller's assistant, or a 404 (also when the assistant is not theirs). A
   * published version never changes, so it is read from a replica when there are replicas; one a
   * replica does not hold yet (published a moment ago) is read from the primary.
   */
  async find(
    userId: string,
    assistantId: string,
    version: number,
  ): Promise<AssistantVersionEntity> {
    const where = { assistant_id: assistantId, user_id: userId, version };
    const found =
      (this.replicas?.enabled
        ? await this.replicas.run((em) => em.findOneBy(AssistantVersionEntity, where))
        : null) ?? (await this.versions.findOneBy(where));
    if (!found) throw AppException.notFound('Assistant version');
    return found;
  }

  /** 404 unless the caller's assistant has that version (other modules' pin checks). */
  async assertExists(userId: string, assistantId: string, version: number): Promise<void> {
    const exists = await this.versions.exists({
      where: { assistant_id: assistantId, user_id: userId, version },
    });
    if (!exists) throw AppException.notFound('Assistant version');
  }

  /** A version's assistant as the read paths expect it, and its tools' definitions as published. */
  async findRestored(
    userId: string,
    assistantId: string,
    version: number,
  ): Promise<{ assistant: AssistantEntity; tools: PublishedTool[] }> {
    const found = await this.find(userId, assistantId, version);
    return { assistant: restoreAssistant(found.assistant), tools: found.tools };
  }

  /** `GET /assistant/details/:id?version=N`: the snapshot in the shape of the working copy's details. */
  async details(
    userId: string,
    assistantId: string,
    version: number,
  ): Promise<AssistantDetailsDto> {
    const found = await this.findRestored(userId, assistantId, version);
    return toAssistantDetails(
      found.assistant,
      found.tools.map((tool) => tool.tool_id),
    );
  }

  /**
   * Stores `assistant` (locked by the caller) and its tools as the assistant's next version, in the
   * caller's transaction. Publishing (assistant-runtime) gathers the tools: the assistant module
   * keeps them as published and never reads the tool module. A concurrent publish that took the
   * number first makes the insert fail on the unique (assistant_id, version) index.
   */
  async insertNext(
    em: EntityManager,
    userId: string,
    assistant: AssistantEntity,
    tools: PublishedTool[],
    note: string | null,
  ): Promise<AssistantVersionDto> {
    const assistantId = assistant.assistant_id;
    const last = await em
      .getRepository(AssistantVersionEntity)
      .createQueryBuilder('v')
      .select('MAX(v.version)', 'max')
      .where('v.assistant_id = :assistantId', { assistantId })
      .getRawOne<{ max: number | string | null }>();
    const entity = em.create(AssistantVersionEntity, {
      version_id: randomUUID(),
      assistant_id: assistantId,
      user_id: userId,
      version: Number(last?.max ?? 0) + 1,
      note,
      assistant: snapshotOf(assistant),
      tools,
      published_at: new Date(),
    });
    await em.insert(
      AssistantVersionEntity,
      entity as QueryDeepPartialEntity<AssistantVersionEntity>,
    );
    await this.audit.record(em, userId, {
      action: 'publish',
      resource_type: 'assistant',
      resource_id: assistantId,
      before: { latest_version: last?.max ? Number(last.max) : null },
      after: { latest_version: entity.version, note },
    });
    return toVersionDto(entity);
  }
}
