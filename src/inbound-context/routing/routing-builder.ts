import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { AuditResourceType } from '../../audit/audit.types';
import { ConfigChanges } from '../../audit/config-changes';
import { loggableError } from '../../common/errors/loggable-error';
import { SecretCipher } from '../../secret/secret-cipher';
import { SecretRepository } from '../../secret/secret.repository';
import { LookupRepository, type ResolvedMapping } from '../lookup.repository';
import {
  referencedSecrets,
  routingFields,
  sealRouting,
  type Routing,
  type OwnerSecrets,
} from './routing-entry';
import { RoutingStore, type UserRoutings } from './routing-store';

/** The kinds of change a lookup's routing is made of (a version is published as an `assistant` change). */
const ROUTING_RESOURCES: ReadonlySet<AuditResourceType> = new Set([
  'inbound',
  'assistant',
  'inbound_context_strategy',
  'secret',
  'webhook_secret',
]);

/** The owners whose routing a change touched; null for every owner. */
export type TouchedOwners = ReadonlySet<string> | null;

/** Backstop for a change that raised no event (one not audited, or made while Redis was down). */
export const ROUTING_REBUILD_INTERVAL_MS = 5 * 60_000;
/** The periodic rebuild's lease ends this long before the next interval: timers drift apart. */
const PERIODIC_LEASE_MARGIN_MS = 10_000;

/**
 * Writes the routing table from the database: every owner's routing after each committed change
 * to it (awaited by the writing call, through `ConfigChanges`), the whole table at start and
 * every `ROUTING_REBUILD_INTERVAL_MS` (by one of the processes sharing the table). Owners'
 * rebuilds run one after the other, and so do full ones, but an owner's rebuild never waits for a
 * full one (a configuration write must not wait for a read of every mapping): the store's tickets
 * keep an older read from overwriting a newer one. A rebuild that fails (database or Redis down)
 * leaves the table as it was and is reported; the start-up one is not awaited, so a process boots
 * without MySQL.
 */
@Injectable()
export class RoutingBuilder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RoutingBuilder.name);
  /** The rebuilds of named owners, and the full ones: two queues that never wait on each other. */
  private readonly chains: Record<'owners' | 'full', Promise<void>> = {
    owners: Promise.resolve(),
    full: Promise.resolve(),
  };
  /** Set at shutdown: a full rebuild under way stops at its next mapping. */
  private stopping = false;
  private timer?: NodeJS.Timeout;
  /** A rebuild failed since the last full one: some owner's routing may be behind. */
  private stale = false;

  constructor(
    private readonly lookups: LookupRepository,
    private readonly cipher: SecretCipher,
    private readonly secrets: SecretRepository,
    private readonly store: RoutingStore,
    @InjectDataSource() private readonly dataSource: DataSource,
    changes: ConfigChanges,
  ) {
    changes.on(({ user_ids, resource_types }, runner) => {
      if ([...resource_types].some((type) => ROUTING_RESOURCES.has(type)))
        return this.rebuild(user_ids, runner);
    });
    // Writes made while the table could not be written are in no routing yet: rebuild them all.
    store.onRecovered(() => {
      if (this.stale) void this.rebuild(null);
    });
  }

  onApplicationBootstrap(): void {
    void this.rebuild(null);
    this.timer = setInterval(() => void this.periodic(), ROUTING_REBUILD_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.stopping = true;
    await this.settled();
  }

  /**
   * The backstop rebuild of the whole table, by one process per interval among those sharing it
   * (a lease in the store); false when another process has it, or the store cannot say (then it
   * cannot be written either).
   */
  async periodic(): Promise<boolean> {
    const lease = ROUTING_REBUILD_INTERVAL_MS - PERIODIC_LEASE_MARGIN_MS;
    const mine = await this.store.claimPeriodicRebuild(lease).catch(() => false);
    if (mine) await this.rebuild(null);
    return mine;
  }

  /** Resolves once every rebuild asked for so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([this.chains.owners, this.chains.full]);
  }

  /**
   * Rebuilds `owners`' routings (every owner's when null); never rejects, reports a failure. Reads
   * on `runner` (a writer's connection, held by it until this is done) or on a connection taken
   * before joining the queue of rebuilds: a rebuild never waits in the queue for a connection that
   * a writer waiting behind it holds.
   */
  rebuild(owners: TouchedOwners, runner?: QueryRunner): Promise<void> {
    const own = runner ? null : this.dataSource.createQueryRunner('master');
    const connected = own ? own.connect().then(() => own) : Promise.resolve(runner!);
    // Awaited once the rebuilds ahead are done; a failure is reported then, not as unhandled.
    connected.catch(() => undefined);
    const lane = owners ? 'owners' : 'full';
    const run = this.chains[lane]
      .then(() => connected)
      .then((reader) => this.build(owners, reader.manager))
      .finally(() => own?.release());
    this.chains[lane] = run.then(
      () => {
        if (!owners) this.stale = false;
      },
      (error: unknown) => {
        this.stale = true;
        if (this.stopping) return;
        this.logger.warn(
          { err: loggableError(error) },
          'could not rebuild the lookup routing; lookups answer from the routing as it was',
        );
      },
    );
    return this.chains[lane];
  }

  private async build(owners: TouchedOwners, manager: EntityManager): Promise<void> {
    const ids = owners ? [...owners] : null;
    const ticket = await this.store.ticket();
    const resolved = await this.lookups.resolveAll(ids, manager);
    const values = await this.secretValues(resolved, manager);
    const users: UserRoutings = new Map((ids ?? []).map((id) => [id, new Map<string, string>()]));
    for (const found of resolved) {
      if (this.stopping && !ids) throw new Error('the process is stopping');
      const userId = found.mapping.user_id;
      const routings = users.get(userId) ?? new Map<string, string>();
      users.set(userId, routings);
      const routing = this.routingOf(found, values.get(userId));
      for (const field of routingFields(found))
        routings.set(field, sealRouting(this.cipher, field, routing));
    }
    if (ids) await this.store.replaceUsers(users, ticket);
    else await this.store.replaceAll(users, ticket);
  }

  /**
   * The values of the secrets `resolved` reference, by owner: one read per owner, however many of
   * its numbers reference them (a whole-table rebuild reads as many statements as owners, not as
   * numbers), each value decrypted once.
   */
  private async secretValues(
    resolved: ResolvedMapping[],
    manager: EntityManager,
  ): Promise<Map<string, Map<string, string>>> {
    const names = new Map<string, Set<string>>();
    for (const found of resolved) {
      const referenced = referencedSecrets(found);
      if (!referenced.length) continue;
      const owned = names.get(found.mapping.user_id) ?? new Set<string>();
      for (const name of referenced) owned.add(name);
      names.set(found.mapping.user_id, owned);
    }
    const values = new Map<string, Map<string, string>>();
    for (const [userId, owned] of names) {
      const rows = await this.secrets.findNamed(userId, [...owned], manager);
      values.set(
        userId,
        new Map(
          rows.map((row) => [
            row.secret_name,
            this.cipher.decrypt(row.value_encrypted, userId, row.secret_name),
          ]),
        ),
      );
    }
    return values;
  }

  /** The routing of `found`, with the values of the secrets it references (and only those). */
  private routingOf(
    found: ResolvedMapping,
    ownerValues: Map<string, string> | undefined,
  ): Routing {
    const secretValues: Record<string, string> = {};
    for (const name of referencedSecrets(found)) {
      const value = ownerValues?.get(name);
      if (value !== undefined) secretValues[name] = value;
    }
    const owner = this.ownerSecrets(found);
    return { found: { ...found, owner: null }, owner, secretValues };
  }

  /**
   * The owner's signing secrets as stored. A rebuild only reads: the secret is created by the
   * first write that needs it (a strategy, a mapping naming one), in that write's transaction.
   */
  private ownerSecrets(found: ResolvedMapping): OwnerSecrets | null {
    const user = found.owner;
    if (!user) return null;
    return {
      user_id: user.user_id,
      webhook_secret: user.webhook_secret,
      webhook_secret_previous: user.webhook_secret_previous,
      webhook_secret_previous_expires_at: user.webhook_secret_previous_expires_at,
    };
  }
}
