import { Injectable } from '@nestjs/common';
import { DataSource, In, Not, type EntityManager, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { lockForWrite } from '../database/transaction';
import { AssistantToolEntity } from './assistant-tool.entity';
import { ToolEntity } from './tool.entity';

/** A stored tool row, as the tool module's queries return it. */
export type ToolRecord = ToolEntity;

/**
 * The `tools` table and the `assistant_tools` attachments. Only the tool module's files know
 * their entities; other modules reach them through this repository or `ToolService`.
 */
@Injectable()
export class ToolRepository {
  private readonly tools: Repository<ToolEntity>;
  private readonly links: Repository<AssistantToolEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.tools = dataSource.getRepository(ToolEntity);
    this.links = dataSource.getRepository(AssistantToolEntity);
  }

  /** Inserts a tool, in the caller's transaction when given one. */
  async insert(row: Partial<ToolEntity>, em?: EntityManager): Promise<void> {
    const repo = em ? em.getRepository(ToolEntity) : this.tools;
    await repo.insert(row as QueryDeepPartialEntity<ToolEntity>);
  }

  page<T>(
    userId: string,
    query: PaginationQueryDto,
    toItems: (rows: ToolEntity[]) => T[],
  ): Promise<Paginated<T>> {
    return findPage(
      this.tools,
      { user_id: userId },
      { created_at: 'DESC', tool_id: 'DESC' },
      query,
      toItems,
    );
  }

  /** The user's tool, or null (also when it is another user's). */
  findOwned(userId: string, toolId: string): Promise<ToolEntity | null> {
    return this.tools.findOneBy({ tool_id: toolId, user_id: userId });
  }

  /** Every tool of the user (the scan for secret references); given `em`, inside its transaction. */
  allOwned(userId: string, em?: EntityManager): Promise<ToolEntity[]> {
    return (em?.getRepository(ToolEntity) ?? this.tools).findBy({ user_id: userId });
  }

  findById(toolId: string): Promise<ToolEntity | null> {
    return this.tools.findOne({ where: { tool_id: toolId } });
  }

  /** The user's tools among `toolIds`, inside the caller's transaction. */
  findOwnedIn(em: EntityManager, userId: string, toolIds: string[]): Promise<ToolEntity[]> {
    return em.find(ToolEntity, { where: { tool_id: In(toolIds), user_id: userId } });
  }

  /** The user's tools among `toolIds`, locked on MySQL (sorted, so concurrent lockers queue in one order). */
  lockOwned(em: EntityManager, userId: string, toolIds: string[]): Promise<ToolEntity[]> {
    return lockForWrite(
      em
        .getRepository(ToolEntity)
        .createQueryBuilder('t')
        .where({ tool_id: In(toolIds), user_id: userId })
        .orderBy('t.tool_id', 'ASC'),
    ).getMany();
  }

  save(em: EntityManager, row: ToolEntity): Promise<ToolEntity> {
    return em.save(ToolEntity, row);
  }

  /** Deletes the tool and its attachments; returns the assistants it was attached to, in id order. */
  async deleteOwned(em: EntityManager, userId: string, toolId: string): Promise<string[]> {
    const links = await em.find(AssistantToolEntity, {
      where: { tool_id: toolId },
      order: { assistant_id: 'ASC' },
    });
    await em.delete(AssistantToolEntity, { tool_id: toolId });
    await em.delete(ToolEntity, { tool_id: toolId, user_id: userId });
    return links.map((link) => link.assistant_id);
  }

  /** The tools attached to an assistant, oldest attachment first. */
  attachedTo(
    assistantId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<ToolEntity[]> {
    return em
      .getRepository(ToolEntity)
      .createQueryBuilder('t')
      .innerJoin(AssistantToolEntity, 'at', 'at.tool_id = t.tool_id')
      .where('at.assistant_id = :assistantId', { assistantId })
      .orderBy('at.created_at', 'ASC')
      .addOrderBy('t.tool_id', 'ASC')
      .getMany();
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

  /** Tools other than `toolId` named `name` attached to any of `assistantIds`. */
  nameClashes(
    em: EntityManager,
    assistantIds: string[],
    toolId: string,
    name: string,
  ): Promise<Array<{ assistant_id: string; tool_id: string }>> {
    return em
      .getRepository(AssistantToolEntity)
      .createQueryBuilder('at')
      .innerJoin(ToolEntity, 't', 't.tool_id = at.tool_id')
      .select(['at.assistant_id AS assistant_id', 't.tool_id AS tool_id'])
      .where({ assistant_id: In(assistantIds), tool_id: Not(toolId) })
      .andWhere('t.tool_name = :name', { name })
      .orderBy('at.assistant_id', 'ASC')
      .getRawMany<{ assistant_id: string; tool_id: string }>();
  }
}
