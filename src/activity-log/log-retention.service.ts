import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { ActivityLogEntity } from './activity-log.entity';
import { timestampParam } from './timestamp-param';

/** Rows deleted per statement: small enough that one DELETE never holds locks for long. */
export const RETENTION_BATCH_SIZE = 5000;
const DAY_MS = 24 * 3600 * 1000;

export interface PurgeResult {
  cutoff: string;
  deleted: number;
  batches: number;
}

/**
 * Deletes activity log entries older than `logs.retentionDays` (env LOG_RETENTION_DAYS, default 90).
 * Works in batches through the `timestamp` index so a purge of millions of rows never turns into one
 * long transaction that blocks the writers of new entries.
 */
@Injectable()
export class LogRetentionService {
  private readonly logger = new Logger(LogRetentionService.name);

  constructor(
    @InjectRepository(ActivityLogEntity) private readonly logs: Repository<ActivityLogEntity>,
    private readonly config: ConfigService,
  ) {}

  get retentionDays(): number {
    return this.config.get<number>('logs.retentionDays') ?? 90;
  }

  async purge(now: Date = new Date(), batchSize = RETENTION_BATCH_SIZE): Promise<PurgeResult> {
    const cutoff = new Date(now.getTime() - this.retentionDays * DAY_MS);
    let deleted = 0;
    let batches = 0;
    for (;;) {
      // Ids first (covered by idx_logs_ts), then a delete by primary key: portable to SQLite,
      // which has no DELETE ... LIMIT, and each statement touches a bounded set of rows.
      const rows = await this.logs
        .createQueryBuilder('l')
        .select('l.id', 'id')
        .where('l.timestamp < :cutoff', { cutoff: timestampParam(this.logs, cutoff) })
        .orderBy('l.timestamp', 'ASC')
        .limit(batchSize)
        .getRawMany<{ id: string | number }>();
      if (!rows.length) break;
      const result = await this.logs.delete({ id: In(rows.map((row) => String(row.id))) });
      deleted += result.affected ?? rows.length;
      batches += 1;
      if (rows.length < batchSize) break;
    }
    if (deleted) this.logger.log({ cutoff, deleted, batches }, 'activity log retention purge');
    return { cutoff: cutoff.toISOString(), deleted, batches };
  }
}
