import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AssistantEntity } from '../assistant/assistant.entity';
import { AssistantRepository } from '../assistant/assistant.repository';
import { AssistantToolsRepository } from '../assistant/assistant-tools.repository';
import { AuditTrail } from '../audit/audit-trail';
import { assertIfMatch } from '../common/etag/etag';
import { nextUpdatedAt } from '../database/owned-entity';
import { runTransaction } from '../database/transaction';
import { AppException } from '../common/errors/app.exception';
import { UrlGuard } from '../common/http/url-guard';
import { SecretReferences } from '../secret/secret-references';
import { assertHeadersResentForNewOrigin } from '../common/secrets/masking';
import { restoreMaskedUrl } from '../common/secrets/url-masking';
import type { Paginated, PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { validateOrThrow } from '../common/validation/validate';
import { toolReferencingFields } from './utils/tool-referencing-fields.util';
import { CreateToolDto } from './dto/create-tool.dto';
import type {
  AssistantToolsDto,
  CreateToolResponseDto,
  DeleteToolResponseDto,
  ToolDetailsDto,
} from './dto/tool-response.dto';
import type { UpdateToolDto } from './dto/update-tool.dto';
import type { ToolEntity } from './tool.entity';
import { ToolRepository } from './tool.repository';
import type { ToolFields } from './tool.types';
import { applyToolDefaults } from './utils/apply-tool-defaults.util';
import { assertAllFound, assertUniqueNames } from './utils/assert-attachable.util';
import { mergeToolPatch } from './utils/merge-tool-patch.util';
import { toToolDetails } from './utils/to-tool-details.util';

/**
 * Tools of one user and their attachment to assistants. Every method takes the caller's
 * `userId`; another user's tool or assistant is reported exactly like a missing one (404).
 *
 * Attach and rename must not leave two tools of the same name on one assistant. Both lock the
 * tool rows first and the assistant rows second (one order, so they cannot deadlock) and read at
 * READ COMMITTED, so the name check sees what a concurrent writer committed while it waited.
 */
@Injectable()
export class ToolService {
  constructor(
    private readonly tools: ToolRepository,
    private readonly assistants: AssistantRepository,
    private readonly links: AssistantToolsRepository,
    private readonly dataSource: DataSource,
    private readonly urlGuard: UrlGuard,
    private readonly secretRefs: SecretReferences,
    private readonly audit: AuditTrail,
  ) {}

  async create(userId: string, dto: CreateToolDto): Promise<CreateToolResponseDto> {
    const fields = applyToolDefaults(dto);
    await this.secretRefs.assertUsable(userId, toolReferencingFields(fields));
    await this.assertWebhookUrl(fields);
    const toolId = randomUUID();
    const now = new Date();
    const row = { tool_id: toolId, user_id: userId, ...fields, created_at: now, updated_at: now };
    await this.transaction(async (em) => {
      // Again inside the transaction, holding the secrets: a concurrent delete cannot slip between.
      await this.secretRefs.assertUsable(userId, toolReferencingFields(fields), em);
      await this.tools.insert(row, em);
      await this.audit.record(em, userId, {
        ...auditOf('create', toolId),
        after: toToolDetails(row),
      });
    });
    return { tool_id: toolId, tool_name: fields.tool_name };
  }

  async list(userId: string, query: PaginationQueryDto): Promise<Paginated<ToolDetailsDto>> {
    return this.tools.page(userId, query, (rows) => rows.map(toToolDetails));
  }

  async details(userId: string, toolId: string): Promise<ToolDetailsDto> {
    return toToolDetails(await this.findOwned(userId, toolId));
  }

  /**
   * Applies a partial update, re-validates the merged tool with the create rules, and refuses a
   * rename that would give an assistant two tools of the same name.
   */
  async update(userId: string, toolId: string, dto: UpdateToolDto): Promise<ToolDetailsDto> {
    const sentUrl = dto.tool_execution_config?.url;
    if (typeof sentUrl === 'string')
      await this.urlGuard.assertPublicUrl(sentUrl, 'tool_execution_config.url');
    const saved = await this.transaction(async (em) => {
      const [stored] = await this.tools.lockOwned(em, userId, [toolId]);
      if (!stored) throw AppException.notFound('Tool');
      const before = structuredClone(toToolDetails(stored));
      assertIfMatch(before);
      const storedFields = applyToolDefaults(stored);
      if (
        storedFields.tool_execution_type === 'webhook' &&
        (dto.tool_execution_type ?? 'webhook') === 'webhook'
      ) {
        const config = storedFields.tool_execution_config;
        assertHeadersResentForNewOrigin(
          config.url,
          typeof sentUrl === 'string' ? sentUrl : config.url,
          config.headers,
          dto.tool_execution_config?.headers,
          'tool_execution_config.headers',
        );
        if (typeof sentUrl === 'string') {
          dto.tool_execution_config!.url = restoreMaskedUrl(
            sentUrl,
            config.url,
            'tool_execution_config.url',
          );
        }
      }
      const merged = mergeToolPatch(storedFields, dto);
      const fields = applyToolDefaults(await validateOrThrow(CreateToolDto, merged));
      await this.secretRefs.assertUsable(userId, toolReferencingFields(fields), em);
      if (fields.tool_name !== stored.tool_name)
        await this.assertRenameFree(em, userId, stored, fields.tool_name);
      Object.assign(stored, fields, { updated_at: nextUpdatedAt(stored.updated_at) });
      const saved = await this.tools.save(em, stored);
      await this.audit.record(em, userId, {
        ...auditOf('update', toolId),
        before,
        after: toToolDetails(saved),
      });
      return saved;
    });
    return toToolDetails(saved);
  }

  /** Deletes the tool and detaches it from every assistant, in one transaction. */
  async remove(userId: string, toolId: string): Promise<DeleteToolResponseDto> {
    return this.transaction(async (em) => {
      const [stored] = await this.tools.lockOwned(em, userId, [toolId]);
      if (!stored) throw AppException.notFound('Tool');
      const before = toToolDetails(stored);
      assertIfMatch(before);
      const detached = await this.links.detachTool(em, toolId);
      await this.tools.deleteOwned(em, userId, toolId);
      await this.audit.record(em, userId, { ...auditOf('delete', toolId), before });
      return { tool_id: toolId, detached_assistant_ids: detached };
    });
  }

  /**
   * Attaches the caller's tools to the caller's assistant. Already attached tools are left as
   * they are; 404 names every id that is not the caller's; 409 when the assistant would end up
   * with two tools of the same name.
   */
  async attach(userId: string, assistantId: string, toolIds: string[]): Promise<AssistantToolsDto> {
    return this.transaction(async (em) => {
      const tools = await this.tools.lockOwned(em, userId, toolIds);
      const assistant = await this.lockAssistant(em, userId, assistantId);
      assertAllFound(toolIds, tools);
      const attached = await this.attachedTo(em, assistant.assistant_id);
      const attachedIds = new Set(attached.map((tool) => tool.tool_id));
      const adding = tools.filter((tool) => !attachedIds.has(tool.tool_id));
      assertUniqueNames([...attached, ...adding]);
      const before = attached.map((tool) => tool.tool_id);
      if (adding.length)
        await this.links.attach(
          em,
          assistantId,
          adding.map((tool) => tool.tool_id),
        );
      return this.attachmentsChanged(em, userId, 'attach', assistantId, before);
    });
  }

  /** Detaches the caller's tools from the caller's assistant; a tool that is not attached is ignored. */
  async detach(userId: string, assistantId: string, toolIds: string[]): Promise<AssistantToolsDto> {
    return this.transaction(async (em) => {
      await this.lockAssistant(em, userId, assistantId);
      assertAllFound(toolIds, await this.tools.findOwnedIn(em, userId, toolIds));
      const before = await this.links.attachedIdsIn(em, assistantId);
      await this.links.detach(em, assistantId, toolIds);
      return this.attachmentsChanged(em, userId, 'detach', assistantId, before);
    });
  }

  /** The caller's tool, or a 404 (also for another user's id). */
  async findOwned(userId: string, toolId: string): Promise<ToolEntity> {
    const tool = await this.tools.findOwned(userId, toolId);
    if (!tool) throw AppException.notFound('Tool');
    return tool;
  }

  /**
   * The tools attached to an assistant, oldest attachment first, with defaults applied and
   * header values in clear. The caller is responsible for the assistant's ownership.
   */
  async attachedTools(assistantId: string): Promise<Array<ToolFields & { tool_id: string }>> {
    const tools = await this.attachedTo(this.dataSource.manager, assistantId);
    return tools.map((tool) => ({ tool_id: tool.tool_id, ...applyToolDefaults(tool) }));
  }

  /** The tools attached to an assistant as stored, oldest attachment first, in `em`'s transaction. */
  async attachedTo(em: EntityManager, assistantId: string): Promise<ToolEntity[]> {
    return this.tools.findInOrder(em, await this.links.attachedIdsIn(em, assistantId));
  }

  /** Another tool named `newName` on any assistant this tool is attached to is a 409. */
  private async assertRenameFree(
    em: EntityManager,
    userId: string,
    tool: ToolEntity,
    newName: string,
  ): Promise<void> {
    const assistantIds = await this.links.assistantIdsOf(em, tool.tool_id);
    if (!assistantIds.length) return;
    await this.assistants.lockOwned(em, userId, assistantIds);
    const others = await this.links.otherLinksOf(em, assistantIds, tool.tool_id);
    const named = await this.tools.namedIn(
      em,
      others.map((link) => link.tool_id),
      newName,
    );
    const clash = others.filter((link) => named.has(link.tool_id));
    if (clash.length) {
      throw AppException.conflict(
        `Another tool named "${newName}" is attached to an assistant this tool is attached to`,
        {
          tool_name: newName,
          assistant_ids: [...new Set(clash.map((row) => row.assistant_id))],
          tool_ids: [...new Set(clash.map((row) => row.tool_id))],
        },
      );
    }
  }

  private async lockAssistant(
    em: EntityManager,
    userId: string,
    assistantId: string,
  ): Promise<AssistantEntity> {
    const [assistant] = await this.assistants.lockOwned(em, userId, [assistantId]);
    if (!assistant) throw AppException.notFound('Assistant');
    return assistant;
  }

  /**
   * The assistant's tools after an attach or detach, audited (on the assistant, whose details list
   * them) when the list changed: attaching an attached tool again is no change.
   */
  private async attachmentsChanged(
    em: EntityManager,
    userId: string,
    action: 'attach' | 'detach',
    assistantId: string,
    before: string[],
  ): Promise<AssistantToolsDto> {
    const after = await this.links.attachedIdsIn(em, assistantId);
    if (after.join() !== before.join()) {
      await this.audit.record(em, userId, {
        action,
        resource_type: 'assistant',
        resource_id: assistantId,
        before: { tool_ids: before },
        after: { tool_ids: after },
      });
    }
    return { assistant_id: assistantId, tool_ids: after };
  }

  /** A transaction, at READ COMMITTED on MySQL (see the class comment). */
  private transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work, 'READ COMMITTED');
  }

  private async assertWebhookUrl(fields: ToolFields): Promise<void> {
    if (fields.tool_execution_type !== 'webhook') return;
    await this.urlGuard.assertPublicUrl(
      fields.tool_execution_config.url,
      'tool_execution_config.url',
    );
  }
}

const auditOf = (action: 'create' | 'update' | 'delete', toolId: string) =>
  ({ action, resource_type: 'tool', resource_id: toolId }) as const;
