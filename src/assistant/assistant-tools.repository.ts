import { Injectable } from '@nestjs/common';
import { DataSource, In, Not, type EntityManager, type Repository } from 'typeorm';
import { AssistantToolEntity } from './assistant-tool.entity';

/**
 * The `assistant_tools` link table: which tools an assistant has, in attachment order. The links
 * belong to the assistant (its details list `tool_ids`); the tool module attaches, detaches and
 * reads them through this repository, and joins them to its own `tools` rows itself.
 */
@Injectable()
export class AssistantToolsRepository {

  private readonly links: Repository<AssistantToolEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.links = dataSource.getRepository(AssistantToolEntity);
  }

  /** Attached tool ids, in the order the assistant details list them (oldest attachment first). */
  async attachedIdsIn(em: EntityManager, assistantId: string): Promise<string[]> {
    const rows = await em.find(AssistantToolEntity, {
      where: { assistant_id: assistantId },
      order: { created_at: 'ASC', tool_id: 'ASC' },
    });
    return rows.map((row) => row.tool_id);
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

  isAttached(assistantId: string, toolId: string): Promise<boolean> {
    return this.links.exists({ where: { assistant_id: assistantId, tool_id: toolId } });
  }

  /** The assistants a tool is attached to, in id order. */
  async assistantIdsOf(em: EntityManager, toolId: string): Promise<string[]> {
    const links = await em.find(AssistantToolEntity, { where: { tool_id: toolId } });
    return links.map((link) => link.assistant_id).sort();
  }

  /** The links from any of `assistantIds` to a tool other than `toolId`, by assistant id. */
  otherLinksOf(
    em: EntityManager,
    assistantIds: string[],
    toolId: string,
  ): Promise<Array<{ assistant_id: string; tool_id: string }>> {
    return em.find(AssistantToolEntity, {
      select: { assistant_id: true, tool_id: true },
      where: { assistant_id: In(assistantIds), tool_id: Not(toolId) },
      order: { assistant_id: 'ASC', tool_id: 'ASC' },
    });
  }

  async attach(em: EntityManager, assistantId: string, toolIds: string[]): Promise<void> {
    const now = new Date();
    await em
      .createQueryBuilder()
      .insert()
      .into(AssistantToolEntity)
      .values(
        toolIds.map((toolId) => ({ assistant_id: assistantId, tool_id: toolId, created_at: now })),
      )
      .orIgnore()
      .execute();
  }

  async detach(em: EntityManager, assistantId: string, toolIds: string[]): Promise<void> {
    await em.delete(AssistantToolEntity, { assistant_id: assistantId, tool_id: In(toolIds) });
  }

  /** Removes every attachment of an assistant (the assistant is being deleted). */
  async detachAssistant(em: EntityManager, assistantId: string): Promise<void> {
    await em.delete(AssistantToolEntity, { assistant_id: assistantId });
  }

  /** Removes every attachment of a tool (it is being deleted); returns its assistants, in id order. */
  async detachTool(em: EntityManager, toolId: string): Promise<string[]> {
    const assistantIds = await this.assistantIdsOf(em, toolId);
    await em.delete(AssistantToolEntity, { tool_id: toolId });
    return assistantIds;
  }
}
