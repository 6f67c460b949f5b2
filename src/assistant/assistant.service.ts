import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource, type EntityManager } from 'typeorm';
import { nextUpdatedAt } from '../database/owned-entity';
import { runTransaction } from '../database/transaction';
import { AuditTrail } from '../audit/audit-trail';
import { assertIfMatch } from '../common/etag/etag';
import { AppException } from '../common/errors/app.exception';
import type { AppConfig } from '../config/app-config';
import { UrlGuard } from '../common/http/url-guard';
import { SecretReferences } from '../secret/secret-references';
import {
  type Paginated,
  type PaginationQueryDto,
  skipOf,
} from '../common/pagination/pagination-query.dto';
import { restoreMaskedUrl } from '../common/secrets/url-masking';
import { validateOrThrow } from '../common/validation/validate';
import { assistantReferencingFields } from './utils/assistant-referencing-fields.util';
import { renderAssistantTemplates } from './prompt-render';
import type { EffectiveAssistantConfig } from './assistant.types';
import { applyAssistantDefaults } from './utils/apply-assistant-defaults.util';
import { mergeAssistantPatch } from './utils/merge-assistant-patch.util';
import { toAssistantDetails } from './utils/to-assistant-details.util';
import { toEffectiveConfig } from './utils/to-effective-config.util';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantViewCache } from './assistant-view.cache';
import { AssistantDeletion } from './assistant-deletion';
import type { AssistantEntity } from './assistant.entity';
import { AssistantRepository } from './assistant.repository';
import { AssistantToolsRepository } from './assistant-tools.repository';
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
  constructor(
    private readonly assistants: AssistantRepository,
    private readonly tools: AssistantToolsRepository,
    private readonly deletion: AssistantDeletion,
    private readonly dataSource: DataSource,
    private readonly urlGuard: UrlGuard,
    private readonly views: AssistantViewCache,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly secretRefs: SecretReferences,
    private readonly audit: AuditTrail,
  ) {}

  async create(userId: string, dto: CreateAssistantDto): Promise<AssistantCreatedDto> {
    const fields = applyAssistantDefaults(dto);
    await this.secretRefs.assertUsable(userId, assistantReferencingFields(fields));
    await this.assertEndCallUrl(fields.assistant_end_call_url);
    const now = new Date();
    const assistant = this.assistants.create({
      assistant_id: randomUUID(),
      user_id: userId,
      ...fields,
      created_at: now,
      updated_at: now,
    });
    await runTransaction(this.dataSource, async (em) => {
      // Again inside the transaction, holding the secrets: a concurrent delete cannot slip between.
      await this.secretRefs.assertUsable(userId, assistantReferencingFields(fields), em);
      await this.assistants.insert(assistant, em);
      await this.audit.record(em, userId, {
        ...auditOf('create', assistant.assistant_id),
        after: toAssistantDetails(assistant, []),
      });
    });
    return { assistant_id: assistant.assistant_id, assistant_name: assistant.assistant_name };
  }

  /** One page, newest first, and the total (cached per process while current: AssistantViewCache). */
  list(userId: string, query: PaginationQueryDto): Promise<Paginated<AssistantDetailsDto>> {
    return this.views.get(`list:${userId}:${query.page}:${query.limit}`, () =>
      this.readPage(userId, query),
    );
  }

  /** The assistant's public view (cached per process while current: AssistantViewCache). */
  details(userId: string, assistantId: string): Promise<AssistantDetailsDto> {
    return this.views.get(`details:${userId}:${assistantId}`, () =>
      this.readDetails(userId, assistantId),
    );
  }

  /** Page and count run at the same time (lean reads: hot route). */
  private async readPage(
    userId: string,
    query: PaginationQueryDto,
  ): Promise<Paginated<AssistantDetailsDto>> {
    const [rows, total] = await Promise.all([
      this.assistants.page(userId, query.limit, skipOf(query)),
      this.assistants.countOwned(userId),
    ]);
    const toolIds = await this.tools.toolIdsOf(rows.map((row) => row.assistant_id));
    return {
      items: rows.map((row) => toAssistantDetails(row, toolIds.get(row.assistant_id) ?? [])),
      total,
      page: query.page,
      limit: query.limit,
    };
  }

  private async readDetails(userId: string, assistantId: string): Promise<AssistantDetailsDto> {
    // Both reads at once (lean reads: hot route); the tool ids are only used once ownership is confirmed.
    const [row, toolIds] = await Promise.all([
      this.assistants.findOwnedLean(userId, assistantId),
      this.tools.toolIdsOf([assistantId]),
    ]);
    if (!row) throw AppException.notFound('Assistant');
    return toAssistantDetails(row, toolIds.get(assistantId) ?? []);
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
    const saved = await runTransaction(this.dataSource, async (em) => {
      const stored = await this.lockOwned(em, userId, assistantId);
      const toolIds = await this.tools.attachedIdsIn(em, assistantId);
      const before = structuredClone(toAssistantDetails(stored, toolIds));
      assertIfMatch(before);
      if (typeof dto.assistant_end_call_url === 'string') {
        dto.assistant_end_call_url = restoreMaskedUrl(
          dto.assistant_end_call_url,
          stored.assistant_end_call_url,
          'assistant_end_call_url',
        );
      }
      const { merged, errors } = mergeAssistantPatch(toEffectiveConfig(stored), dto);
      if (errors.length) throw AppException.validation(errors);
      const valid = await validateOrThrow(CreateAssistantDto, merged);
      const fields = applyAssistantDefaults(valid);
      await this.secretRefs.assertUsable(userId, assistantReferencingFields(fields), em);
      Object.assign(stored, fields, { updated_at: nextUpdatedAt(stored.updated_at) });
      const saved = await this.assistants.save(em, stored);
      await this.audit.record(em, userId, {
        ...auditOf('update', assistantId),
        before,
        after: toAssistantDetails(saved, toolIds),
      });
      return saved;
    });
    const toolIds = await this.tools.toolIdsOf([assistantId]);
    return toAssistantDetails(saved, toolIds.get(assistantId) ?? []);
  }

  /**
   * Deletes the assistant with its tool attachments and published versions, in one transaction
   * that also runs the other modules' `AssistantDeletion` handlers (inbound mappings stay, without
   * an assistant). Activity log entries are history and stay.
   */
  async remove(userId: string, assistantId: string): Promise<AssistantDeletedDto> {
    await runTransaction(this.dataSource, async (em) => {
      const stored = await this.lockOwned(em, userId, assistantId);
      const before = toAssistantDetails(stored, await this.tools.attachedIdsIn(em, assistantId));
      assertIfMatch(before);
      await this.tools.detachAssistant(em, assistantId);
      await em.delete(AssistantVersionEntity, { assistant_id: assistantId });
      await this.deletion.deleted(em, assistantId, userId);
      await this.assistants.deleteOwned(em, userId, assistantId);
      await this.audit.record(em, userId, { ...auditOf('delete', assistantId), before });
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
    const maxBytes = this.config.get('limits.maxRenderedPromptBytes', { infer: true });
    const call = dto.call ?? null;
    const { prompt, start_instruction, missing, exceeded } = renderAssistantTemplates(
      assistant,
      { context: dto.context ?? null, call },
      maxBytes,
    );
    if (exceeded.length > 0) {
      // Name what made it too long: the context, unless the call values alone already do.
      const field =
        dto.context && renderAssistantTemplates(assistant, { call }, maxBytes).exceeded.length === 0
          ? 'context'
          : 'call';
      throw AppException.validation([
        {
          field,
          message: `makes ${exceeded.join(' and ')} longer than MAX_RENDERED_PROMPT_BYTES (${maxBytes} bytes)`,
        },
      ]);
    }
    return { assistant_id: assistantId, prompt: prompt ?? '', start_instruction, missing };
  }

  /** The caller's assistant, or a 404 (also for another user's id). */
  async findOwned(userId: string, assistantId: string): Promise<AssistantEntity> {
    const assistant = await this.assistants.findOwned(userId, assistantId);
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  /** 404 unless the assistant is the caller's (other modules' ownership checks). */
  async assertOwned(userId: string, assistantId: string): Promise<void> {
    if (!(await this.assistants.existsOwned(userId, assistantId)))
      throw AppException.notFound('Assistant');
  }

  /**
   * The caller's assistant as the call stack runs it: every default filled in, provider keys in
   * clear. Never return it from a public route as is.
   */
  async effectiveConfig(userId: string, assistantId: string): Promise<EffectiveAssistantConfig> {
    return toEffectiveConfig(await this.findOwned(userId, assistantId));
  }

  /** The caller's assistant, its row locked for the caller's transaction on MySQL; else a 404. */
  async lockOwned(
    em: EntityManager,
    userId: string,
    assistantId: string,
  ): Promise<AssistantEntity> {
    // SQLite has no row locks; `runTransaction` runs one transaction at a time there instead.
    const [assistant] = await this.assistants.lockOwned(em, userId, [assistantId]);
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  private async assertEndCallUrl(url: string | null): Promise<void> {
    if (url) await this.urlGuard.assertPublicUrl(url, 'assistant_end_call_url');
  }
}

const auditOf = (action: 'create' | 'update' | 'delete', assistantId: string) =>
  ({ action, resource_type: 'assistant', resource_id: assistantId }) as const;
