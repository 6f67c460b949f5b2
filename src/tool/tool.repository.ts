import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { lockForWrite } from '../database/transaction';
import { ToolEntity } from './tool.entity';

/**
 * The `tools` table. Only the tool module's files know its entity; other modules reach it through
 * this repository or `ToolService`. The attachments (`assistant_tools`) belong to the assistant
 * module: `AssistantToolsRepository`.
 */
@Injectable()
export class ToolRepository {
  private readonly tools: Repository<ToolEntity>;

  constructor(dataSource: DataSource) {
    this.tools = dataSource.getRepository(ToolEntity);
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

  /** Deletes the tool row (its attachments go first: `AssistantToolsRepository.detachTool`). */
  async deleteOwned(em: EntityManager, userId: string, toolId: string): Promise<void> {
    await em.delete(ToolEntity, { tool_id: toolId, user_id: userId });
  }

  /** The tools among `toolIds`, in the order of `toolIds` (the attachment order the caller read). */
  async findInOrder(em: EntityManager, toolIds: string[]): Promise<ToolEntity[]> {
    if (!toolIds.length) return [];
    const rows = await em.findBy(ToolEntity, { tool_id: In(toolIds) });
    const byId = new Map(rows.map((row) => [row.tool_id, row]));
    return toolIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** The ids among `toolIds` of tools named `name`. */
  async namedIn(em: EntityManager, toolIds: string[], name: string): Promise<Set<string>> {
    if (!toolIds.length) return new Set();
    const rows = await em.find(ToolEntity, {
      select: { tool_id: true },
      where: { tool_id: In(toolIds), tool_name: name },
    });
    return new Set(rows.map((row) => row.tool_id));
  }
}
