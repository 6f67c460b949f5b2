import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolCluster, PoolConnection } from 'mysql2';
import type { DataSource } from 'typeorm';
import { withTimeout } from '../common/time/with-timeout';
import type { AppConfig } from '../config/app-config';

const PING_TIMEOUT_MS = 1500;

/** One replica's state in `/health` and `/health/ready` details. */
export interface ReplicaStatus {
  status: 'up' | 'down';
  /** host:port of the replica (never its credentials). */
  host: string;
  /** The replica's `Seconds_Behind_Master`, when it lets this user read it; null while its SQL thread is stopped. */
  lag_seconds?: number | null;
  message?: string;
}

/** Where a replica URL points, for the health details. */
export function replicaHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unparseable URL)';
  }
}

/** `Seconds_Behind_Master` (MariaDB, MySQL before 8.0.22) or `Seconds_Behind_Source` of a status row. */
export function lagOf(row: Record<string, unknown> | undefined): number | null | undefined {
  if (!row) return undefined;
  const key = 'Seconds_Behind_Master' in row ? 'Seconds_Behind_Master' : 'Seconds_Behind_Source';
  const value = row[key];
  if (value === null) return null;
  return value === undefined ? undefined : Number(value);
}

/**
 * Each MySQL read replica (`DATABASE_REPLICA_URLS`), checked on TypeORM's own replica pools
 * (`SLAVE<n>`): a `SELECT 1` and, where the user may read it, the replication lag. A replica that
 * is down is reported but does not make the process unready: replica reads then go to the primary.
 */
@Injectable()
export class ReplicaHealth {
  private readonly urls: string[];

  constructor(
    config: ConfigService<AppConfig, true>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.urls = config.get('database.replicaUrls', { infer: true });
  }

  /** `{ database_replica_0: {...}, ... }`, or `{}` without replicas. */
  async check(): Promise<Record<string, ReplicaStatus>> {
    const cluster = (this.dataSource.driver as unknown as { poolCluster?: PoolCluster }).poolCluster;
    if (!cluster || this.urls.length === 0) return {};
    const results = await Promise.all(
      this.urls.map((url, index) =>
        withTimeout(
          this.ping(cluster, index),
          PING_TIMEOUT_MS,
          () => new Error(`no answer within ${PING_TIMEOUT_MS} ms`),
        ).then(
          (lag): ReplicaStatus => ({
            status: 'up',
            host: replicaHost(url),
            ...(lag === undefined ? {} : { lag_seconds: lag }),
          }),
          (error: unknown): ReplicaStatus => ({
            status: 'down',
            host: replicaHost(url),
            message: error instanceof Error ? error.message : 'unreachable',
          }),
        ),
      ),
    );
    return Object.fromEntries(results.map((result, index) => [`database_replica_${index}`, result]));
  }

  private async ping(cluster: PoolCluster, index: number): Promise<number | null | undefined> {
    const connection = await new Promise<PoolConnection>((resolve, reject) =>
      cluster.of(`SLAVE${index}`).getConnection((error, conn) => (error ? reject(error) : resolve(conn))),
    );
    try {
      await connection.promise().query('SELECT 1');
      try {
        const [rows] = await connection.promise().query('SHOW SLAVE STATUS');
        return lagOf((rows as Record<string, unknown>[])[0]);
      } catch {
        // Without the REPLICATION CLIENT privilege: up, lag unknown.
        return undefined;
      }
    } finally {
      connection.release();
    }
  }
}
