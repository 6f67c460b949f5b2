import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { RETENTION_BATCH_SIZE } from '../database/retention-batch';
import { isMysql, runTransaction } from '../database/transaction';
import { MaintenanceTasks } from '../queue/maintenance-tasks';
import { ActivityLogEntity } from './activity-log.entity';
import { dayOf, dropEmptyCounts, subtractCounts } from './log-counts';
import { dropTargetCountsBefore } from './log-targets';
import { timestampParam } from './timestamp-param';

const DAY_MS = 24 * 3600 * 1000;

export interface PurgeResult {
  cutoff: string;
  deleted: number;
  batches: number;
}

/**
 * Deletes activity log entries older than `logs.retentionDays` (`LOG_RETENTION_DAYS`).
 * Works in batches through the `timestamp` index so a purge of millions of rows never turns into one
 * long transaction that blocks the writers of new entries; each batch takes its entries off the
 * per-day counters in the same transaction. Runs daily at 03:00 UTC as the `maintenance` task
 * `purge-activity-logs`.
 */
@Injectable()
export class LogRetentionService implements OnModuleInit {
  private readonly logger = new Logger(LogRetentionService.name);

  constructor(
    @InjectRepository(ActivityLogEntity) private readonly logs: Repository<ActivityLogEntity>,
    private readonly config: ConfigService<AppConfig, true>,
    @Optional() private readonly tasks?: MaintenanceTasks,
  ) {}

  onModuleInit(): void {
    this.tasks?.register('purge-activity-logs', {
      run: () => this.purge(),
      // The job id of the schedule since it was the queue's only task: one schedule, not two.
      schedule: { jobId: 'log-retention', repeat: { cron: '0 3 * * *', tz: 'UTC' } },
    });
  }

  get retentionDays(): number {
    return this.config.get('logs.retentionDays', { infer: true });
  }

  async purge(now: Date = new Date(), batchSize = RETENTION_BATCH_SIZE): Promise<PurgeResult> {
    const cutoff = new Date(now.getTime() - this.retentionDays * DAY_MS);
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const removed = await runTransaction(this.logs.manager.connection, (em) =>
        this.purgeBatch(em, cutoff, batchSize),
      );
      if (!removed) break;
      deleted += removed;
      batches += 1;
      if (removed < batchSize) break;
    }
    if (deleted) await dropEmptyCounts(this.logs.manager.connection, dayOf(cutoff));
    // Endpoint counters are per hour and never partly purged: the hours before the cutoff go whole.
    await dropTargetCountsBefore(this.logs.manager.connection, cutoff);
    if (deleted) this.logger.log({ cutoff, deleted, batches }, 'activity log retention purge');
    return { cutoff: cutoff.toISOString(), deleted, batches };
  }

  /**
   * Deletes the oldest entries before `cutoff` (at most `batchSize`) and takes them off the
   * per-day counters, in the caller's transaction. On MySQL the rows are read with a write lock,
   * so two purges running at once never take the same entries off the counters twice.
   */
  private async purgeBatch(em: EntityManager, cutoff: Date, batchSize: number): Promise<number> {
    // Oldest first through idx_logs_ts, then a delete by primary key: portable to SQLite, which
    // has no DELETE ... LIMIT, and each statement touches a bounded set of rows.
    const select = em
      .getRepository(ActivityLogEntity)
      .createQueryBuilder('l')
      .select([
        'l.id',
        'l.user_id',
        'l.log_type',
        'l.status',
        'l.assistant_id',
        'l.error_class',
        'l.timestamp',
      ])
      .where('l.timestamp < :cutoff', { cutoff: timestampParam(this.logs, cutoff) })
      .orderBy('l.timestamp', 'ASC')
      .limit(batchSize);
    if (isMysql(em.connection)) select.setLock('pessimistic_write');
    const rows = await select.getMany();
    if (!rows.length) return 0;
    await em.getRepository(ActivityLogEntity).delete({ id: In(rows.map((row) => row.id)) });
    await subtractCounts(em, rows);
    return rows.length;
  }
}
