import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { currentRequest } from '../common/pipeline/request-context';
import { diffViews } from './audit-changes';
import { AuditEntryEntity } from './audit-entry.entity';
import { ConfigChanges } from './config-changes';
import type { AuditAction, AuditChange, AuditResourceType } from './audit.types';

/** What a service says about its change; who made it and the request id come from the request. */
export interface AuditRecordInput {
  action: AuditAction;
  resource_type: AuditResourceType;
  resource_id: string;
  /**
   * The record's view before and after, exactly as its reads return it (secrets masked): the
   * entry lists the fields that differ. Null (or absent) before a creation and after a deletion.
   */
  before?: unknown;
  after?: unknown;
  /** Changes the views cannot show (e.g. a secret's value: `****` on both sides). */
  extra?: AuditChange[];
  /** A change the service made itself, not a request (e.g. `{system: "guardrail"}`). */
  actor?: { system: string };
}

/**
 * Writes audit entries. Call `record` inside the change's transaction, with its entity manager:
 * the entry commits with the change or not at all. Secret values never reach it: it is given the
 * masked views the reads return, never rows. The entry marks the transaction: once it commits,
 * `ConfigChanges` tells its listeners (the view cache, the lookup routing).
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly changes: ConfigChanges) {}

  async record(em: EntityManager, ownerId: string, input: AuditRecordInput): Promise<void> {
    const req = currentRequest() as AuthenticatedRequest | undefined;
    const requestId = typeof req?.id === 'string' ? req.id : null;
    const auditId = randomUUID();
    await em.insert(AuditEntryEntity, {
      audit_id: auditId,
      user_id: ownerId,
      timestamp: new Date(),
      action: input.action,
      resource_type: input.resource_type,
      resource_id: input.resource_id,
      actor_user_id: input.actor ? null : (req?.user?.user_id ?? null),
      actor_api_key_id: input.actor ? null : (req?.user?.api_key_id ?? null),
      actor_system: input.actor?.system ?? null,
      request_id: requestId,
      changes: [...diffViews(input.before ?? null, input.after ?? null), ...(input.extra ?? [])],
    } as QueryDeepPartialEntity<AuditEntryEntity>);
    const { resource_type, resource_id, action } = input;
    await this.changes.recorded(em, {
      user_id: ownerId,
      resource_type,
      resource_id,
      audit_id: auditId,
      action,
    });
  }
}
