import { Injectable } from '@nestjs/common';
import {
  DataSource,
  In,
  type EntityManager,
  type ObjectLiteral,
  type Repository,
  type SelectQueryBuilder,
} from 'typeorm';
import { LeanReader } from '../database/lean-reader';
import { lockForWrite } from '../database/transaction';
import { AssistantEntity } from './assistant.entity';

/**
 * The `assistants` table. Only the assistant module's files know its entity; other modules reach
 * it through this repository or `AssistantService`.
 */
@Injectable()
export class AssistantRepository {
  private readonly repo: Repository<AssistantEntity>;
  private readonly lean: LeanReader<AssistantEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(AssistantEntity);
    this.lean = new LeanReader(dataSource, AssistantEntity);
  }

  /** One page of the user's assistants, newest first (lean read: hot route). */
  page(userId: string, limit: number, offset: number): Promise<AssistantEntity[]> {
    return this.lean.find(
      'WHERE user_id = ? ORDER BY created_at DESC, assistant_id DESC LIMIT ? OFFSET ?',
      [userId, limit, offset],
    );
  }

  async countOwned(userId: string): Promise<number> {
    const counted = await this.dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM assistants WHERE user_id = ?',
      [userId],
    );
    return Number(counted[0]?.n ?? 0);
  }

  /** Like `findOwned`, as a lean read (hot route). */
  async findOwnedLean(userId: string, assistantId: string): Promise<AssistantEntity | null> {
    const rows = await this.lean.find('WHERE assistant_id = ? AND user_id = ? LIMIT 1', [
      assistantId,
      userId,
    ]);
    return rows[0] ?? null;
  }

  create(values: Partial<AssistantEntity>): AssistantEntity {
    return this.repo.create(values);
  }

  /** Inserts an assistant, in the caller's transaction when given one. */
  async insert(row: AssistantEntity, em?: EntityManager): Promise<void> {
    await (em ? em.getRepository(AssistantEntity) : this.repo).insert(row);
  }

  /** Every assistant of the user (the scan for secret references); given `em`, inside its transaction. */
  allOwned(userId: string, em?: EntityManager): Promise<AssistantEntity[]> {
    return (em?.getRepository(AssistantEntity) ?? this.repo).findBy({ user_id: userId });
  }

  /** The user's assistant, or null (also when it is another user's); given `em`, read through it. */
  findOwned(
    userId: string,
    assistantId: string,
    em?: EntityManager,
  ): Promise<AssistantEntity | null> {
    const repo = em?.getRepository(AssistantEntity) ?? this.repo;
    return repo.findOneBy({ assistant_id: assistantId, user_id: userId });
  }

  existsOwned(userId: string, assistantId: string): Promise<boolean> {
    return this.repo.exists({ where: { assistant_id: assistantId, user_id: userId } });
  }

  /** Who owns an assistant, by id alone (job processors get ids from the call stack), or null. */
  ownerOf(assistantId: string): Promise<Pick<AssistantEntity, 'assistant_id' | 'user_id'> | null> {
    return this.repo.findOne({
      select: { assistant_id: true, user_id: true },
      where: { assistant_id: assistantId },
    });
  }

  /**
   * The user's assistants among `assistantIds`, their rows locked for the caller's transaction on
   * MySQL, in id order (so concurrent lockers queue in one order and cannot deadlock).
   */
  lockOwned(em: EntityManager, userId: string, assistantIds: string[]): Promise<AssistantEntity[]> {
    return lockForWrite(
      em
        .getRepository(AssistantEntity)
        .createQueryBuilder('a')
        .where({ assistant_id: In(assistantIds), user_id: userId })
        .orderBy('a.assistant_id', 'ASC'),
    ).getMany();
  }

  save(em: EntityManager, row: AssistantEntity): Promise<AssistantEntity> {
    return em.save(AssistantEntity, row);
  }

  async deleteOwned(em: EntityManager, userId: string, assistantId: string): Promise<void> {
    await em.delete(AssistantEntity, { assistant_id: assistantId, user_id: userId });
  }

  /**
   * Left-joins, into another module's query, the assistant `on` names (mapped onto `mapTo` under
   * `alias`), so a read that needs it stays one statement without naming this table.
   */
  static joinAssistant<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    mapTo: string,
    alias: string,
    on: string,
  ): SelectQueryBuilder<T> {
    return qb.leftJoinAndMapOne(mapTo, AssistantEntity, alias, on);
  }
}
