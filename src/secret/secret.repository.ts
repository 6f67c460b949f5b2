import { Injectable } from '@nestjs/common';
import {
  DataSource,
  In,
  type EntityManager,
  type FindOptionsWhere,
  type Repository,
  type UpdateQueryBuilder,
} from 'typeorm';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { lockForWrite } from '../database/transaction';
import { SecretEntity } from './secret.entity';

/** A secret named by its owner and name. */
export interface NamedSecret {
  userId: string;
  name: string;
}

/** Secrets stamped by one statement of `touchNamed` (two bound values each). */
const TOUCH_BATCH = 500;

/**
 * The `secrets` table. Only the secret module's files know its entity; other modules reach it
 * through `SecretReferences` (validation and resolution of `{{secret.NAME}}`).
 */
@Injectable()
export class SecretRepository {

  private readonly repo: Repository<SecretEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(SecretEntity);
  }

  /** Inserts a secret, in the caller's transaction when given one. */
  async insert(row: Partial<SecretEntity>, em?: EntityManager): Promise<void> {
    await (em ? em.getRepository(SecretEntity) : this.repo).insert(row);
  }

  page<T>(
    userId: string,
    query: PaginationQueryDto,
    toItems: (rows: SecretEntity[]) => Promise<T[]>,
  ): Promise<Paginated<T>> {
    return findPage(
      this.repo,
      { user_id: userId },
      { created_at: 'DESC', secret_id: 'DESC' },
      query,
      toItems,
    );
  }

  findOwned(userId: string, name: string): Promise<SecretEntity | null> {
    return this.repo.findOneBy({ user_id: userId, secret_name: name });
  }

  /** The user's secrets among `names` (values included, for resolution); given `em`, read through it. */
  findNamed(userId: string, names: string[], em?: EntityManager): Promise<SecretEntity[]> {
    if (!names.length) return Promise.resolve([]);
    const repo = em?.getRepository(SecretEntity) ?? this.repo;
    return repo.findBy({ user_id: userId, secret_name: In(names) });
  }

  /**
   * The user's secrets among `names`, their rows locked for the rest of the caller's transaction
   * on MySQL: a delete (which locks the row for write) waits for the save that references the
   * secret, and a save waits for a delete under way (and then finds it gone); a first use binds
   * the row it holds. SQLite runs one transaction at a time (`runTransaction`).
   */
  async holdNamed(em: EntityManager, userId: string, names: string[]): Promise<SecretEntity[]> {
    if (!names.length) return [];
    const qb = em
      .getRepository(SecretEntity)
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.secret_name IN (:...names)', { userId, names })
      .orderBy('s.secret_name', 'ASC');
    // FOR UPDATE, not FOR SHARE: MariaDB has no FOR SHARE (TypeORM would emit it from its version).
    return lockForWrite(qb).getMany();
  }

  /** The user's secret, its row locked for the caller's transaction on MySQL. */
  lockOwned(em: EntityManager, userId: string, name: string): Promise<SecretEntity | null> {
    return lockForWrite(
      em
        .getRepository(SecretEntity)
        .createQueryBuilder('s')
        .where('s.user_id = :userId AND s.secret_name = :name', { userId, name }),
    ).getOne();
  }

  save(em: EntityManager, row: SecretEntity): Promise<SecretEntity> {
    return em.save(SecretEntity, row);
  }

  async delete(em: EntityManager, secretId: string): Promise<void> {
    await em.delete(SecretEntity, { secret_id: secretId });
  }

  /**
   * Stamps `last_used_at` without touching `updated_at` (MySQL would renew it on any update that
   * does not set it). Only the rows whose stamp is older than `staleBefore`: a secret resolved
   * on every call is written at most once a minute. No entity listener runs: a stamp changes no
   * configuration, so nothing that watches this table for changes (the routing table's rebuilds,
   * which would rebuild every owner for an update that names none) is woken by it.
   */
  async touch(secretIds: string[], now: Date, staleBefore: Date): Promise<void> {
    if (!secretIds.length) return;
    await this.stampStale({ secret_id: In(secretIds) }, now, staleBefore).execute();
  }

  /**
   * `touch` by owner and name, `TOUCH_BATCH` secrets a statement (one for the usual batch): the
   * uses `SecretUseStamps` collected.
   */
  async touchNamed(secrets: readonly NamedSecret[], now: Date, staleBefore: Date): Promise<void> {
    for (let start = 0; start < secrets.length; start += TOUCH_BATCH) {
      const batch = secrets.slice(start, start + TOUCH_BATCH);
      await this.stampStale(
        batch.map(({ userId, name }) => ({ user_id: userId, secret_name: name })),
        now,
        staleBefore,
      ).execute();
    }
  }

  /** The UPDATE of `touch`: `last_used_at` of the rows `where` picks, if older than `staleBefore`. */
  private stampStale(
    where: FindOptionsWhere<SecretEntity> | FindOptionsWhere<SecretEntity>[],
    now: Date,
    staleBefore: Date,
  ): UpdateQueryBuilder<SecretEntity> {
    const column = this.repo.metadata.findColumnWithPropertyName('last_used_at')!;
    // TypeORM does not convert query parameters: bind the stale bound as the driver stores it.
    const stale: unknown = this.dataSource.driver.preparePersistentValue(staleBefore, column);
    return this.repo
      .createQueryBuilder()
      .update(SecretEntity)
      .set({ last_used_at: now, updated_at: () => 'updated_at' })
      .where(where)
      .andWhere('(last_used_at IS NULL OR last_used_at < :stale)', { stale })
      .callListeners(false);
  }

  /** The newest stored row, whatever its owner (the start-up check of the encryption key). */
  newest(): Promise<SecretEntity | null> {
    return this.repo.findOne({ where: {}, order: { created_at: 'DESC' } });
  }

  /** The key check row's value (`secret_key_check`), or null before any process wrote it. */
  async keyCheck(em: EntityManager = this.dataSource.manager): Promise<string | null> {
    const row = await em
      .createQueryBuilder()
      .select('k.value_encrypted', 'value')
      .from(KEY_CHECK_TABLE, 'k')
      .where('k.id = :id', { id: KEY_CHECK_ID })
      .getRawOne<{ value: string }>();
    return row?.value ?? null;
  }

  /** Writes the key check row unless a process wrote it first (that one's stays). */
  async addKeyCheck(value: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(KEY_CHECK_TABLE)
      .values({ id: KEY_CHECK_ID, value_encrypted: value })
      .orIgnore()
      .execute();
  }

  /** Replaces the key check row's value (a re-encryption, in its transaction). */
  async replaceKeyCheck(em: EntityManager, value: string): Promise<void> {
    await em
      .createQueryBuilder()
      .update(KEY_CHECK_TABLE)
      .set({ value_encrypted: value })
      .where('id = :id', { id: KEY_CHECK_ID })
      .execute();
  }
}

const KEY_CHECK_TABLE = 'secret_key_check';
const KEY_CHECK_ID = 'store';
