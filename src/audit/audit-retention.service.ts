import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { dateParam } from '../database/date-param';
import { RETENTION_BATCH_SIZE } from '../database/retention-batch';
import { MaintenanceTasks } from '../queue/maintenance-tasks';
import { AuditEntryEntity } from './audit-entry.entity';

const DAY_MS = 24 * 3600 * 1000;
/** How often the purge runs (the `maintenance` task `purge-audit-entries`). */
const PURGE_EVERY_MS = 6 * 3600 * 1000;

/**
 * Deletes audit entries older than the activity log's retention (`LOG_RETENTION_DAYS`), oldest
 * first in batches through `idx_audit_ts`, so a purge never holds locks for long.
 */
@Injectable()
export class AuditRetentionService implements OnModuleInit {
  private readonly logger = new Logger(AuditRetentionService.name);

  constructor(
    @InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>,
    private readonly config: ConfigService<AppConfig, true>,
    @Optional() private readonly tasks?: MaintenanceTasks,
  ) {}

  onModuleInit(): void {
    this.tasks?.register('purge-audit-entries', {
      run: () => this.purge(),
      schedule: { jobId: 'audit-retention', repeat: { every: PURGE_EVERY_MS } },
    });
  }

  /** Deletes entries older than the retention; answers how many. */
  async purge(now = new Date(), batchSize = RETENTION_BATCH_SIZE): Promise<number> {
    const days = this.config.get('logs.retentionDays', { infer: true });
    const cutoff = dateParam(this.entries, 'timestamp', new Date(now.getTime() - days * DAY_MS));
    let deleted = 0;
    for (;;) {
      const rows = await this.entries
        .createQueryBuilder('a')
        .select('a.id')
        .where('a.timestamp < :cutoff', { cutoff })
        .orderBy('a.timestamp', 'ASC')
        .limit(batchSize)
        .getMany();
      if (!rows.length) break;
      await this.entries.delete({ id: In(rows.map((row) => row.id)) });
      deleted += rows.length;
      if (rows.length < batchSize) break;
    }
    if (deleted) this.logger.log({ deleted }, 'audit retention purge');
    return deleted;
  }
}
