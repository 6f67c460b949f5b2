import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { LogRow } from '../activity-log/group-commit.types';
import { LogBatchHooks } from '../activity-log/log-batch-hooks';
import { originOf } from '../activity-log/log-targets';
import { loggableError } from '../common/errors/loggable-error';
import { HealthSubscribers } from '../lookup/routing/health-subscribers';
import { EndpointHealthStore, WINDOW_MINUTES } from './endpoint-health';
import { TenantEvents } from './tenant-events';

/**
 * `endpoint.unhealthy` / `endpoint.recovered` of a strategy's endpoint: each committed lookup
 * entry that called one counts for its origin (`EndpointHealthStore`); the attempt that changes
 * the origin's state raises the event, once, whichever process wrote it. Only owners with a
 * subscription to either event are counted, as the owner's routing record says (the lookup read it:
 * no database read), so the others cost one read from memory per entry.
 */
@Injectable()
export class EndpointHealthEvents implements OnModuleInit {
  private readonly logger = new Logger(EndpointHealthEvents.name);

  constructor(
    private readonly hooks: LogBatchHooks,
    private readonly store: EndpointHealthStore,
    private readonly events: TenantEvents,
    private readonly subscribers: HealthSubscribers,
  ) {}

  onModuleInit(): void {
    this.hooks.register({
      statements: () => [],
      committed: (row) => this.committed(row),
    });
  }

  private committed(row: LogRow): void {
    if (row.log_type !== 'inbound_context_lookup') return;
    const origin = originOf(row.request_data?.url);
    if (!origin) return;
    this.observe(row.user_id, origin, row.status === 'error', row.timestamp).catch(
      (error: unknown) =>
        this.logger.warn({ err: loggableError(error) }, 'endpoint health not judged'),
    );
  }

  /** Counts one attempt of `origin`; raises the event when it changed the origin's state. */
  async observe(userId: string, origin: string, failed: boolean, at: Date): Promise<void> {
    // The routing record the lookup read says it (no database read); the subscriptions, read from
    // the database (5 s in memory), only when no routing read by this process said (the lookup
    // read the database, or the entry was written elsewhere).
    const wanted =
      this.subscribers.known(userId) ??
      ((await this.events.wants(userId, 'endpoint.unhealthy')) ||
        (await this.events.wants(userId, 'endpoint.recovered')));
    if (!wanted) return;
    const { attempts, errors, change } = await this.store.observe(userId, origin, failed, at);
    if (!change) return;
    const type = change.state === 'unhealthy' ? 'endpoint.unhealthy' : 'endpoint.recovered';
    await this.events.emit(userId, type, `${userId}\u0000${origin}\u0000${change.seq}`, {
      origin,
      attempts,
      errors,
      error_rate: Math.round((errors / attempts) * 1000) / 1000,
      window_seconds: WINDOW_MINUTES * 60,
    });
  }
}
