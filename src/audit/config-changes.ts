import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { loggableError } from '../common/errors/loggable-error';
import type { AuditAction, AuditResourceType } from './audit.types';

/** One record an audit entry named. */
export interface ChangedResource {
  user_id: string;
  resource_type: AuditResourceType;
  resource_id: string;
  /** The entry's id and action (what tenant `config.changed` events carry). */
  audit_id?: string;
  action?: AuditAction;
}

/**
 * What a committed configuration change touched: whose, which kinds of record, and the records
 * themselves (for a listener that rewrites only what changed).
 */
export interface ConfigChanged {
  user_ids: ReadonlySet<string>;
  resource_types: ReadonlySet<AuditResourceType>;
  resources: readonly ChangedResource[];
}

/**
 * Told each committed change, awaited before the writing call goes on (so the writer's answer
 * comes after it). `runner` is the writer's query runner when the change was made in a
 * transaction: its transaction is over and its connection held until every listener is done, so
 * a listener that reads the database reads on it instead of waiting for another connection from a
 * pool that concurrent writers may hold. Without one, the writer holds no connection.
 */
export type ConfigChangeListener = (
  change: ConfigChanged,
  runner: QueryRunner | undefined,
) => Promise<void> | void;

/** Where, on a transaction's query runner, what its audit entries named so far is kept. */
const PENDING = 'configChanged';

interface Pending {
  user_ids: Set<string>;
  resource_types: Set<AuditResourceType>;
  resources: ChangedResource[];
}

const pendingOf = (): Pending => ({ user_ids: new Set(), resource_types: new Set(), resources: [] });

/**
 * The one event configuration changes raise: every change writes its audit entry in its
 * transaction (`AuditTrail.record`), which marks the transaction here; after the outermost COMMIT
 * (a released savepoint leaves it open), or at once outside a transaction, listeners are told
 * once, with every owner and kind of record the transaction's entries named. A rollback tells no
 * one. Writes that do not audit raise nothing.
 */
@Injectable()
export class ConfigChanges implements EntitySubscriberInterface {
  private readonly logger = new Logger(ConfigChanges.name);
  private readonly listeners: ConfigChangeListener[] = [];

  constructor(@InjectDataSource() dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  on(listener: ConfigChangeListener): void {
    this.listeners.push(listener);
  }

  /** Notes an audit entry written through `em`: told after its transaction commits, or now. */
  async recorded(em: EntityManager, resource: ChangedResource): Promise<void> {
    const runner = em.queryRunner;
    const outside = !runner?.isTransactionActive;
    const data = (runner?.data ?? {}) as Record<string, Pending | undefined>;
    const pending = outside ? pendingOf() : (data[PENDING] ??= pendingOf());
    pending.user_ids.add(resource.user_id);
    pending.resource_types.add(resource.resource_type);
    pending.resources.push(resource);
    if (outside) await this.emit(pending, runner);
  }

  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    const runner = event.queryRunner;
    const data = runner.data as Record<string, Pending | undefined>;
    const pending = data[PENDING];
    if (runner.isTransactionActive || !pending) return;
    delete data[PENDING];
    return this.emit(pending, runner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const data = event.queryRunner.data as Record<string, Pending | undefined>;
    if (!event.queryRunner.isTransactionActive) delete data[PENDING];
  }

  /** Every listener, at once; one that fails is reported (the change is committed, it stands). */
  private async emit(change: ConfigChanged, runner: QueryRunner | undefined): Promise<void> {
    await Promise.all(
      this.listeners.map(async (listener) => {
        try {
          await listener(change, runner);
        } catch (error) {
          this.logger.warn({ err: loggableError(error) }, 'a configuration change listener failed');
        }
      }),
    );
  }
}
