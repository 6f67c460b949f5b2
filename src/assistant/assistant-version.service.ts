import { randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
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
import { runTransaction } from '../database/transaction';
import { isUniqueViolation } from '../database/unique-violation';
import { ToolRepository, type ToolRecord } from '../tool/tool.repository';
import { restoreAssistant, type AssistantSnapshot, type ToolSnapshot } from './assistant-snapshot';
import { AssistantVersionEntity } from './assistant-version.entity';
import { toAssistantDetails } from './utils/to-assistant-details.util';
import type { AssistantRecord } from './assistant.repository';
import type { AssistantDetailsDto } from './dto/assistant-response.dto';
import { AssistantService } from './assistant.service';
import type { AssistantVersionDto, PublishAssistantDto } from './dto/assistant-version.dto';

/** Publishes racing past the row lock (none on SQLite's queue, none across a failover) retry this often. */
const PUBLISH_ATTEMPTS = 5;

export function toVersionDto(entity: AssistantVersionEntity): AssistantVersionDto {
  return {
    assistant_id: entity.assistant_id,
    version: Number(entity.version),
    published_at: toIso(entity.published_at),
    note: entity.note ?? null,
  };
}

function snapshotOf(assistant: AssistantRecord): AssistantSnapshot {
  return {
    ...assistant,
    created_at: toIso(assistant.created_at),
    updated_at: toIso(assistant.updated_at),
  };
}

function toolSnapshotOf(tool: ToolRecord): ToolSnapshot {
  return {
    tool_id: tool.tool_id,
    tool_name: tool.tool_name,
    tool_description: tool.tool_description,
    tool_parameters: tool.tool_parameters,
    tool_execution_type: tool.tool_execution_type,
    tool_execution_config: tool.tool_execution_config,
  };
}

/** Published, immutable versions of a user's assistants. */
@Injectable()
export class AssistantVersionService {
  constructor(
    @InjectRepository(AssistantVersionEntity)
    private readonly versions: Repository<AssistantVersionEntity>,
    private readonly assistants: AssistantService,
    private readonly tools: ToolRepository,
    private readonly dataSource: DataSource,
    private readonly audit: AuditTrail,
    @Optional() private readonly replicas?: ReplicaReads,
  ) {}

  /**
   * Snapshots the working copy and its attached tools as the next version. The assistant row is
   * locked while the number is chosen, and the unique (assistant_id, version) index settles any
   * race the lock does not cover: the loser retries with the next number.
   */
  async publish(
    userId: string,
    assistantId: string,
    dto: PublishAssistantDto,
  ): Promise<AssistantVersionDto> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const saved = await runTransaction(this.dataSource, (em) =>
          this.publishIn(em, userId, assistantId, dto.note ?? null),
        );
        return toVersionDto(saved);
      } catch (error) {
        if (attempt < PUBLISH_ATTEMPTS && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

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
  ): Promise<{ assistant: AssistantRecord; tools: ToolSnapshot[] }> {
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

  private async publishIn(
    em: EntityManager,
    userId: string,
    assistantId: string,
    note: string | null,
  ): Promise<AssistantVersionEntity> {
    const assistant = await this.assistants.lockOwned(em, userId, assistantId);
    const [tools, last] = await Promise.all([
      this.tools.attachedTo(assistantId, em),
      em
        .getRepository(AssistantVersionEntity)
        .createQueryBuilder('v')
        .select('MAX(v.version)', 'max')
        .where('v.assistant_id = :assistantId', { assistantId })
        .getRawOne<{ max: number | string | null }>(),
    ]);
    const entity = em.create(AssistantVersionEntity, {
      version_id: randomUUID(),
      assistant_id: assistantId,
      user_id: userId,
      version: Number(last?.max ?? 0) + 1,
      note,
      assistant: snapshotOf(assistant),
      tools: tools.map(toolSnapshotOf),
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
    return entity;
  }
}
