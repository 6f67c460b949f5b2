import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { ConfigChanges, type ConfigChanged } from '../audit/config-changes';
import { TenantEvents } from './tenant-events';

/**
 * `config.changed`: one event per audit entry, raised once its transaction commits (the audit
 * writer's own event, `ConfigChanges`), with the entry's id, so a tenant can read the entry
 * (`GET /audit`). The entry id is the event's key: one entry, one event. A subscription's own
 * create, update or delete is such a change too: its owner's subscriptions are read afresh, as
 * committed, so a subscription created (or updated) to take `config.changed` receives that
 * change's event, and a deleted one does not. Deliveries change nothing, so this never loops.
 */
@Injectable()
export class ConfigChangedEvents implements OnModuleInit {
  constructor(
    private readonly changes: ConfigChanges,
    private readonly events: TenantEvents,
  ) {}

  onModuleInit(): void {
    this.changes.on((change, runner) => this.raise(change, runner));
  }

  private async raise(change: ConfigChanged, runner: QueryRunner | undefined): Promise<void> {
    const at = new Date();
    for (const { user_id, resource_type } of change.resources)
      if (resource_type === 'event_subscription') this.events.forget(user_id);
    const raised = [];
    for (const { user_id, audit_id, action, resource_type, resource_id } of change.resources) {
      if (!audit_id) continue;
      const data = { audit_id, action: action ?? null, resource_type, resource_id };
      raised.push(this.events.emit(user_id, 'config.changed', audit_id, data, at, runner));
    }
    await Promise.all(raised);
  }
}
