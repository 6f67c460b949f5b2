import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Reads that may lag behind the last write, sent to a MySQL read replica (`DATABASE_REPLICA_URLS`)
 * on a query runner of its own in TypeORM's 'slave' mode. Everything else reads the primary (the
 * data source's default mode), so a client always reads its own configuration writes. Without
 * replicas (and on SQLite) the read runs on the primary's manager.
 */
@Injectable()
export class ReplicaReads {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether replicas are configured: reads through `run` go to them. */
  get enabled(): boolean {
    return this.dataSource.driver.isReplicated;
  }

  /**
   * Runs `read` with a manager on one replica connection, released afterwards; on the primary
   * when no replica gives a connection.
   */
  async run<T>(read: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.enabled) return read(this.dataSource.manager);
    const runner = this.dataSource.createQueryRunner('slave');
    try {
      await runner.connect();
    } catch {
      // No replica answers (each is reported by /health): the primary serves the read meanwhile.
      await runner.release();
      return read(this.dataSource.manager);
    }
    try {
      return await read(runner.manager);
    } finally {
      await runner.release();
    }
  }
}
