import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { runTransaction } from '../database/transaction';
import { AppException } from '../common/errors/app.exception';
import { UrlGuard } from '../common/http/url-guard';
import {
  type Paginated,
  type PaginationQueryDto,
  skipOf,
} from '../common/pagination/pagination-query.dto';
import { LeanReader } from '../database/lean-reader';
import { restoreMaskedUrl } from '../common/secrets/masking';
import { validateOrThrow } from '../common/validation/validate';
import { InboundMappingEntity } from '../inbound-context/inbound-mapping.entity';
import { renderAssistantTemplates } from '../inbound-context/prompt-render';
import { AssistantToolEntity } from '../tool/assistant-tool.entity';
import {
  applyDefaults,
  mergeAssistantUpdate,
  toAssistantDetails,
  toEffectiveConfig,
  type AssistantFields,
  type EffectiveAssistantConfig,
} from './assistant-config';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantEntity } from './assistant.entity';
import type {
  AssistantCreatedDto,
  AssistantDeletedDto,
  AssistantDetailsDto,
} from './dto/assistant-response.dto';
import { CreateAssistantDto } from './dto/create-assistant.dto';
import type { RenderAssistantDto, RenderedAssistantDto } from './dto/render-assistant.dto';
import type { UpdateAssistantDto } from './dto/update-assistant.dto';

/**
 * Assistants of one user. Every method takes the caller's `userId`; an assistant of another user
 * is reported exactly like a missing one (404).
 */
@Injectable()
export class AssistantService {
  private readonly lean: LeanReader<AssistantEntity>;

  constructor(
    @InjectRepository(AssistantEntity) private readonly assistants: Repository<AssistantEntity>,
    private readonly dataSource: DataSource,
    private readonly urlGuard: UrlGuard,
  ) {
    this.lean = new LeanReader(dataSource, AssistantEntity);
  }

  async create(userId: string, dto: CreateAssistantDto): Promise<AssistantCreatedDto> {
    const fields = applyDefaults(dto as unknown as Record<string, unknown>);
    await this.assertEndCallUrl(fields.assistant_end_call_url);
    const now = new Date();
    // Timestamps set here: SQLite's column default has whole seconds only, too coarse for "newest first".
    const assistant = this.assistants.create({
      assistant_id: randomUUID(),
      user_id: userId,
      ...toColumns(fields),
      created_at: now,
      updated_at: now,
    });
    await this.assistants.insert(assistant as QueryDeepPartialEntity<AssistantEntity>);
    return { assistant_id: assistant.assistant_id, assistant_name: assistant.assistant_name };
  }

  /** One page, newest first, and the total: page and count run at the same time (lean reads: hot route). */
  async list(userId: string, query: PaginationQueryDto): Promise<Paginated<AssistantDetailsDto>> {
    const [rows, counted] = await Promise.all([
      this.lean.find(
        'WHERE user_id = ? ORDER BY created_at DESC, assistant_id DESC LIMIT ? OFFSET ?',
        [userId, query.limit, skipOf(query)],
      ),
      this.dataSource.query<{ n: number | string }[]>(
        'SELECT COUNT(*) AS n FROM assistants WHERE user_id = ?',
        [userId],
      ),
    ]);
    const toolIds = await this.toolIdsOf(rows.map((row) => row.assistant_id));
    return {
      items: rows.map((row) => toAssistantDetails(row, toolIds.get(row.assistant_id) ?? [])),
      total: Number(counted[0]?.n ?? 0),
      page: query.page,
      limit: query.limit,
    };
  }

  async details(userId: string, assistantId: string): Promise<AssistantDetailsDto> {
    // Both reads at once (lean reads: hot route); the tool ids are only used once ownership is confirmed.
    const [rows, toolIds] = await Promise.all([
      this.lean.find('WHERE assistant_id = ? AND user_id = ? LIMIT 1', [assistantId, userId]),
      this.toolIdsOf([assistantId]),
    ]);
    if (!rows.length) throw AppException.notFound('Assistant');
    return toAssistantDetails(rows[0], toolIds.get(assistantId) ?? []);
  }

  /**
   * Applies a partial update and re-validates the merged record with the create rules. Read,
   * merge and write happen in one transaction, the row locked on MySQL, so two concurrent
   * PATCHes of different keys both land.
   */
  async update(
    userId: string,
    assistantId: string,
    dto: UpdateAssistantDto,
  ): Promise<AssistantDetailsDto> {
    if (typeof dto.assistant_end_call_url === 'string') {
      await this.assertEndCallUrl(dto.assistant_end_call_url);
    }
    const saved = await this.transaction(async (em) => {
      const stored = await this.lockOwned(em, userId, assistantId);
      if (typeof dto.assistant_end_call_url === 'string') {
        dto.assistant_end_call_url = restoreMaskedUrl(
          dto.assistant_end_call_url,
          stored.assistant_end_call_url,
          'assistant_end_call_url',
        );
      }
      const { merged, errors } = mergeAssistantUpdate(
        toEffectiveConfig(stored),
        dto as unknown as Record<string, unknown>,
      );
      if (errors.length) throw AppException.validation(errors);
      const valid = await validateOrThrow(CreateAssistantDto, merged);
      const fields = applyDefaults(valid as unknown as Record<string, unknown>);
      Object.assign(stored, toColumns(fields), { updated_at: new Date() });
      return em.save(AssistantEntity, stored);
    });
    const toolIds = await this.toolIdsOf([assistantId]);
    return toAssistantDetails(saved, toolIds.get(assistantId) ?? []);
  }

  /**
   * Deletes the assistant with its tool attachments and published versions and detaches it from inbound mappings (which
   * stay, without an assistant), in one transaction. Activity log entries are history and stay.
   */
  async remove(userId: string, assistantId: string): Promise<AssistantDeletedDto> {
    await this.transaction(async (em) => {
      await this.lockOwned(em, userId, assistantId);
      await em.delete(AssistantToolEntity, { assistant_id: assistantId });
      await em.delete(AssistantVersionEntity, { assistant_id: assistantId });
      await em.update(
        InboundMappingEntity,
        { assistant_id: assistantId },
        { assistant_id: null, assistant_version: null, updated_at: new Date() },
      );
      await em.delete(AssistantEntity, { assistant_id: assistantId, user_id: userId });
    });
    return { assistant_id: assistantId };
  }

  /** The prompt and start instruction rendered with sample values, as a lookup would render them. */
  async render(
    userId: string,
    assistantId: string,
    dto: RenderAssistantDto,
  ): Promise<RenderedAssistantDto> {
    const assistant = await this.findOwned(userId, assistantId);
    const rendered = renderAssistantTemplates(assistant, {
      context: dto.context ?? null,
      call: dto.call ?? null,
    });
    return { assistant_id: assistantId, ...rendered, prompt: rendered.prompt ?? '' };
  }

  /** The caller's assistant, or a 404 (also for another user's id). For other modules' ownership checks. */
  async findOwned(userId: string, assistantId: string): Promise<AssistantEntity> {
    const assistant = await this.assistants.findOneBy({
      assistant_id: assistantId,
      user_id: userId,
    });
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  /** Like `findOwned`, inside the caller's transaction. */
  async findOwnedIn(
    em: EntityManager,
    userId: string,
    assistantId: string,
  ): Promise<AssistantEntity> {
    const assistant = await em.findOneBy(AssistantEntity, {
      assistant_id: assistantId,
      user_id: userId,
    });
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  /**
   * The caller's assistant as the call stack runs it: every default filled in, provider keys in
   * clear. Never return it from a public route as is.
   */
  async effectiveConfig(userId: string, assistantId: string): Promise<EffectiveAssistantConfig> {
    return toEffectiveConfig(await this.findOwned(userId, assistantId));
  }

  /** An assistant by id alone (job processors, which get ids from the call stack), or null. */
  async findById(assistantId: string): Promise<AssistantEntity | null> {
    return this.assistants.findOneBy({ assistant_id: assistantId });
  }

  /** Attached tool ids per assistant, oldest attachment first (plain strings: no entity to build). */
  async toolIdsOf(assistantIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!assistantIds.length) return out;
    const rows = await this.dataSource.query<{ assistant_id: string; tool_id: string }[]>(
      `SELECT assistant_id, tool_id FROM assistant_tools WHERE assistant_id IN (${assistantIds.map(() => '?').join(', ')}) ORDER BY created_at ASC, tool_id ASC`,
      assistantIds,
    );
    for (const row of rows) {
      const ids = out.get(row.assistant_id) ?? [];
      ids.push(row.tool_id);
      out.set(row.assistant_id, ids);
    }
    return out;
  }

  private transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /** The caller's assistant, its row locked for the caller's transaction on MySQL; else a 404. */
  async lockOwned(
    em: EntityManager,
    userId: string,
    assistantId: string,
  ): Promise<AssistantEntity> {
    const qb = em
      .getRepository(AssistantEntity)
      .createQueryBuilder('a')
      .where('a.assistant_id = :assistantId AND a.user_id = :userId', { assistantId, userId });
    // SQLite has no row locks; `transaction()` queues this service's transactions there instead.
    if (this.dataSource.options.type === 'mysql') qb.setLock('pessimistic_write');
    const assistant = await qb.getOne();
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  private async assertEndCallUrl(url: string | null): Promise<void> {
    if (url) await this.urlGuard.assertPublicUrl(url, 'assistant_end_call_url');
  }
}

/** Fields as entity columns (the JSON configs typed loosely, as the entity stores them). */
function toColumns(fields: AssistantFields): Partial<AssistantEntity> {
  return {
    ...fields,
    assistant_interaction_config: { ...fields.assistant_interaction_config },
    assistant_tts_config: fields.assistant_tts_config ? { ...fields.assistant_tts_config } : null,
    assistant_llm_config: fields.assistant_llm_config ? { ...fields.assistant_llm_config } : null,
  };
}
