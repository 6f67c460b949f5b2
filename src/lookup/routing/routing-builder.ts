import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { AuditResourceType } from '../../audit/audit.types';
import { ConfigChanges, type ChangedResource } from '../../audit/config-changes';
import { loggableError } from '../../common/errors/loggable-error';
import { MaintenanceTasks } from '../../queue/maintenance-tasks';
import { LookupRepository } from '../../inbound-context/lookup.repository';
import { RoutingRecords } from './routing-records';
import { RoutingStore } from './routing-store';

/** The kinds of change a lookup's routing is made of (a version is published as an `assistant` change). */
const ROUTING_RESOURCES: ReadonlySet<AuditResourceType> = new Set([
  'inbound',
  'assistant',
  'inbound_context_strategy',
  'secret',
  'webhook_secret',
  // The owner's record says whether it subscribes to endpoint-health events.
  'event_subscription',
]);

/**
 * Backstop for a change that raised no event (one not audited, or made while Redis was down): the
 * `maintenance` task `rebuild-routing`, one repeatable job (fixed id) however many processes run.
 */
export const ROUTING_REBUILD_INTERVAL_MS = 5 * 60_000;
export const ROUTING_REBUILD_JOB_ID = 'routing-rebuild';
/** Mappings a full rebuild reads (and writes) at a time: its memory is one page's. */
export const ROUTING_PAGE_SIZE = 500;

/**
 * Writes the routing table from the database. After each committed change (awaited by the writing
 * call, through `ConfigChanges`): the entries of the mappings it wrote, or the one shared record of
 * the assistant, strategy, secret or signing secret it changed, never the owner's other numbers.
 * The whole table at start and every `ROUTING_REBUILD_INTERVAL_MS` (the `maintenance` task
 * `rebuild-routing`, run by one worker), in keyset pages of `ROUTING_PAGE_SIZE` mappings written as they are read, then a
 * sweep of what no read since its start wrote. Full rebuilds run one after the other; a change
 * never waits for one (the store's tickets keep an older read from overwriting a newer one). A
 * rebuild that fails (database or Redis down) leaves the table as it was and is reported; the
 * start-up one is not awaited, so a process boots without MySQL.
 */
@Injectable()
export class RoutingBuilder implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RoutingBuilder.name);
  private full: Promise<void> = Promise.resolve();
  /** The changes being written now. */
  private readonly changes = new Set<Promise<void>>();
  /** Set at shutdown: a full rebuild under way stops at its next page. */
  private stopping = false;
  /** A write failed since the last full rebuild: some routing may be behind. */
  private stale = false;

  constructor(
    private readonly lookups: LookupRepository,
    private readonly records: RoutingRecords,
    private readonly store: RoutingStore,
    @InjectDataSource() private readonly dataSource: DataSource,
    changes: ConfigChanges,
    @Optional() private readonly tasks?: MaintenanceTasks,
  ) {
    changes.on(({ resources }, runner) => {
      const routing = resources.filter((r) => ROUTING_RESOURCES.has(r.resource_type));
      if (routing.length) return this.apply(routing, runner);
    });
    // Writes made while the table could not be written are in no routing yet: rebuild them all.
    store.onRecovered(() => {
      if (this.stale) void this.rebuild();
    });
  }

  onModuleInit(): void {
    this.tasks?.register('rebuild-routing', {
      run: () => this.rebuild(),
      schedule: { jobId: ROUTING_REBUILD_JOB_ID, repeat: { every: ROUTING_REBUILD_INTERVAL_MS } },
    });
  }

  onApplicationBootstrap(): void {
    void this.rebuild();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  /** Resolves once every rebuild and change asked for so far has been written. */
  async settled(): Promise<void> {
    await Promise.all([this.full, ...this.changes]);
  }

  /**
   * Writes what `resources` changed; never rejects, reports a failure. Reads on `runner` (a
   * writer's connection, held by it until this is done) or on a connection of its own.
   */
  apply(resources: readonly ChangedResource[], runner?: QueryRunner): Promise<void> {
    const run = this.withReader(runner, async (manager) => {
      const ticket = await this.store.ticket();
      await this.store.write(await this.records.ofChanges(resources, ticket, manager));
    }).catch((error: unknown) => this.failed(error));
    this.changes.add(run);
    void run.finally(() => this.changes.delete(run));
    return run;
  }

  /** Rebuilds the whole table; never rejects, reports a failure. */
  rebuild(): Promise<void> {
    this.full = this.full
      .then(() => this.withReader(undefined, (manager) => this.rebuildAll(manager)))
      .then(
        () => void (this.stale = false),
        (error: unknown) => this.failed(error),
      );
    return this.full;
  }

  /** Every mapping in keyset pages, each written as read; then what no read since the start wrote goes. */
  private async rebuildAll(manager: EntityManager): Promise<void> {
    const start = await this.store.ticket();
    let after: string | null = null;
    for (;;) {
      if (this.stopping) throw new Error('the process is stopping');
      const ticket = await this.store.ticket();
      const page = await this.lookups.resolvePage(after, ROUTING_PAGE_SIZE, manager);
      if (page.length) await this.store.write(await this.records.ofMappings(page, ticket, manager));
      if (page.length < ROUTING_PAGE_SIZE) break;
      after = page[page.length - 1].mapping.inbound_id;
    }
    await this.store.sweep(start);
  }

  /** Runs `work` on `runner`'s manager, or on a connection of its own (released after). */
  private async withReader<T>(
    runner: QueryRunner | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    if (runner) return work(runner.manager);
    const own = this.dataSource.createQueryRunner('master');
    try {
      await own.connect();
      return await work(own.manager);
    } finally {
      await own.release();
    }
  }

  private failed(error: unknown): void {
    this.stale = true;
    if (this.stopping) return;
    this.logger.warn(
      { err: loggableError(error) },
      'could not rebuild the lookup routing; lookups answer from the routing as it was',
    );
  }
}
