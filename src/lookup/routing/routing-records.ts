import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssistantRepository } from '../../assistant/assistant.repository';
import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { ChangedResource } from '../../audit/config-changes';
import { WebhookSecretsService } from '../../auth/webhook-secrets.service';
import { SecretCipher } from '../../secret/secret-cipher';
import { SecretRepository } from '../../secret/secret.repository';
import type { InboundContextStrategyEntity } from '../../inbound-context/inbound-context-strategy.entity';
import {
  LookupRepository,
  policyAssistantKey,
  type ResolvedMapping,
} from '../../inbound-context/lookup.repository';
import {
  entryOf,
  FIELD,
  referencedSecrets,
  sealRecord,
  tombstone,
  type OwnerRecord,
  type OwnerSecrets,
  type RoutingEntry,
  type StrategyRecord,
} from './routing-entry';
import { HealthSubscribers } from './health-subscribers';
import type { RoutingBatch } from './routing-store';

/**
 * What the routing table gets from the database: a number's entry and the shared records it names
 * (for a mapping written, and for each page of a full rebuild), or the one shared record a change
 * to an assistant, a strategy, a secret or a signing secret rewrites. Reads go through the manager
 * given (a writer's connection after its commit, or the rebuild's own).
 */
@Injectable()
export class RoutingRecords {
  constructor(
    private readonly lookups: LookupRepository,
    private readonly assistants: AssistantRepository,
    private readonly secrets: SecretRepository,
    private readonly cipher: SecretCipher,
    private readonly healthSubscribers: HealthSubscribers,
  ) {}

  /** The entries of `resolved` and every record they name, read under `ticket`. */
  async ofMappings(
    resolved: readonly ResolvedMapping[],
    ticket: number,
    manager: EntityManager,
  ): Promise<RoutingBatch> {
    const batch: RoutingBatch = { entries: [], records: new Map() };
    const strategies = new Map<string, InboundContextStrategyEntity>();
    const owners = [...new Set(resolved.flatMap((found) => found.owner?.user_id ?? []))];
    const subscribed = await this.healthSubscribers.among(owners, manager);
    for (const found of resolved) {
      const entry = entryOf(found, ticket, (field, value) =>
        sealRecord(this.cipher, field, found.mapping.user_id, value, ticket),
      );
      batch.entries.push(entry);
      if (found.owner && !batch.records.has(FIELD.owner(entry.u)))
        this.put(
          batch,
          FIELD.owner(entry.u),
          entry.u,
          ownerRecordOf(found.owner, subscribed),
          ticket,
        );
      this.putAssistants(batch, entry, found, ticket);
      this.putPolicyAssistants(batch, entry, found, ticket);
      if (found.strategy) strategies.set(found.strategy.strategy_id, found.strategy);
    }
    await this.putStrategies(batch, [...strategies.values()], ticket, manager);
    return batch;
  }

  /** What the changes rewrite: each mapping's entry, or each shared record, read under `ticket`. */
  async ofChanges(
    changes: readonly ChangedResource[],
    ticket: number,
    manager: EntityManager,
  ): Promise<RoutingBatch> {
    const mappingIds = [
      ...new Set(changes.filter((c) => c.resource_type === 'inbound').map((c) => c.resource_id)),
    ];
    const found = await this.lookups.resolveIds(mappingIds, manager);
    const batch = await this.ofMappings(found, ticket, manager);
    const kept = new Set(found.map((row) => row.mapping.inbound_id));
    for (const id of mappingIds.filter((id) => !kept.has(id)))
      batch.entries.push({ t: ticket, i: id, u: '', c: '', p: '', d: 1 });
    for (const change of changes) await this.putChange(batch, change, ticket, manager);
    return batch;
  }

  private async putChange(
    batch: RoutingBatch,
    { user_id: userId, resource_type: type, resource_id: id }: ChangedResource,
    ticket: number,
    manager: EntityManager,
  ): Promise<void> {
    // Every change rewrites its owner's record: the first strategy-bearing write creates its
    // signing secrets, and a subscription's create, update or delete may change its health flag.
    if (!batch.records.has(FIELD.owner(userId))) {
      const owner = await WebhookSecretsService.ownerSecrets(manager, userId);
      const subscribed = owner && (await this.healthSubscribers.among([userId], manager));
      this.put(
        batch,
        FIELD.owner(userId),
        userId,
        owner && subscribed && ownerRecordOf(owner, subscribed),
        ticket,
      );
    }
    if (type === 'assistant' && !batch.records.has(FIELD.assistant(id))) {
      const assistant = await this.assistants.findOwned(userId, id, manager);
      this.put(batch, FIELD.assistant(id), userId, assistant, ticket);
    } else if (type === 'inbound_context_strategy' || type === 'secret') {
      const owned = await this.lookups.strategiesOf(userId, type === 'secret' ? null : id, manager);
      const touched =
        type === 'secret' ? owned.filter((s) => referencedSecrets(s).includes(id)) : owned;
      await this.putStrategies(batch, touched, ticket, manager);
      if (type === 'inbound_context_strategy' && !owned.length)
        batch.records.set(FIELD.strategy(id), tombstone(ticket));
    }
  }

  /** The working copy, the pinned version and the split's versions the entry names. */
  private putAssistants(
    batch: RoutingBatch,
    entry: RoutingEntry,
    found: ResolvedMapping,
    ticket: number,
  ): void {
    if (!entry.a || !found.working) return;
    this.put(batch, FIELD.assistant(entry.a), entry.u, found.working, ticket);
    if (found.version !== null)
      this.put(batch, FIELD.version(entry.a, found.version), entry.u, found.assistant, ticket);
    for (const arm of found.variants ?? [])
      if (arm.assistant_version !== null && arm.assistant)
        this.put(
          batch,
          FIELD.version(entry.a, arm.assistant_version),
          entry.u,
          arm.assistant,
          ticket,
        );
  }

  /** The assistants (working copies and versions) the entry's policy names. */
  private putPolicyAssistants(
    batch: RoutingBatch,
    entry: RoutingEntry,
    found: ResolvedMapping,
    ticket: number,
  ): void {
    for (const [assistantId, version] of entry.q ?? []) {
      const working = found.policyAssistants?.get(policyAssistantKey(assistantId, null)) ?? null;
      this.put(batch, FIELD.assistant(assistantId), entry.u, working, ticket);
      const pinned = found.policyAssistants?.get(policyAssistantKey(assistantId, version));
      if (version !== null && pinned)
        this.put(batch, FIELD.version(assistantId, version), entry.u, pinned, ticket);
    }
  }

  /** Each strategy with the values of the secrets it references: one read per owner. */
  private async putStrategies(
    batch: RoutingBatch,
    strategies: readonly InboundContextStrategyEntity[],
    ticket: number,
    manager: EntityManager,
  ): Promise<void> {
    const byOwner = new Map<string, InboundContextStrategyEntity[]>();
    for (const s of strategies) byOwner.set(s.user_id, [...(byOwner.get(s.user_id) ?? []), s]);
    for (const [userId, owned] of byOwner) {
      const names = [...new Set(owned.flatMap((s) => referencedSecrets(s)))];
      const rows = await this.secrets.findNamed(userId, names, manager);
      const values = new Map(
        rows.map((row) => [
          row.secret_name,
          {
            value: this.cipher.decrypt(row.value_encrypted, userId, row.secret_name),
            allowed_origins: row.allowed_origins,
          },
        ]),
      );
      for (const strategy of owned) {
        const record: StrategyRecord = { strategy, values: {} };
        for (const name of referencedSecrets(strategy)) {
          const value = values.get(name);
          if (value !== undefined) record.values[name] = value;
        }
        this.put(batch, FIELD.strategy(strategy.strategy_id), userId, record, ticket);
      }
    }
  }

  /** Seals `value` under `field`, or a tombstone when it is gone. */
  private put(
    batch: RoutingBatch,
    field: string,
    userId: string,
    value: AssistantEntity | OwnerRecord | StrategyRecord | null,
    ticket: number,
  ): void {
    batch.records.set(
      field,
      value ? sealRecord(this.cipher, field, userId, value, ticket) : tombstone(ticket),
    );
  }
}

/** The owner's record: its signing secrets, and the health flag when it subscribes. */
function ownerRecordOf(owner: OwnerSecrets, subscribed: ReadonlySet<string>): OwnerRecord {
  return {
    user_id: owner.user_id,
    webhook_secret: owner.webhook_secret,
    webhook_secret_previous: owner.webhook_secret_previous,
    webhook_secret_previous_expires_at: owner.webhook_secret_previous_expires_at,
    ...(subscribed.has(owner.user_id) ? { h: 1 as const } : {}),
  };
}
