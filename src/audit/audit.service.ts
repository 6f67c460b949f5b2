import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { skipOf } from '../common/pagination/pagination-query.dto';
import { parseIsoTimestamp, toIso } from '../common/time/iso';
import { dateParam } from '../database/date-param';
import { AuditEntryEntity } from './audit-entry.entity';
import type { AuditEntryDto, AuditPageDto } from './dto/audit-entry.dto';
import type { AuditQueryDto } from './dto/audit-query.dto';

export function toAuditEntry(row: AuditEntryEntity): AuditEntryDto {
  return {
    audit_id: row.audit_id,
    timestamp: toIso(row.timestamp),
    action: row.action,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    actor: row.actor_system
      ? { system: row.actor_system }
      : { user_id: row.actor_user_id, api_key_id: row.actor_api_key_id },
    request_id: row.request_id,
    changes: row.changes,
  };
}

/** The caller's audit trail (`GET /audit`): their records' entries only, newest first. */
@Injectable()
export class AuditService {
  constructor(
    @InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>,
  ) {}

  async list(userId: string, query: AuditQueryDto): Promise<AuditPageDto> {
    const qb = this.entries.createQueryBuilder('a').where('a.user_id = :userId', { userId });
    if (query.resource_type)
      qb.andWhere('a.resource_type = :type', { type: query.resource_type });
    if (query.resource_id) qb.andWhere('a.resource_id = :id', { id: query.resource_id });
    if (query.action) qb.andWhere('a.action = :action', { action: query.action });
    if (query.from) qb.andWhere('a.timestamp >= :from', { from: this.instant(query.from) });
    if (query.to) qb.andWhere('a.timestamp <= :to', { to: this.instant(query.to) });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('a.timestamp', 'DESC')
        .addOrderBy('a.id', 'DESC')
        .offset(skipOf(query))
        .limit(query.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { items: rows.map(toAuditEntry), total, page: query.page, limit: query.limit };
  }

  /** A validated ISO 8601 filter as the driver compares the column. */
  private instant(value: string): unknown {
    return dateParam(this.entries, 'timestamp', parseIsoTimestamp(value)!);
  }
}
