import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { UserEntity } from '../../auth/user.entity';
import { referencedNames } from '../../common/secrets/secret-reference';
import type { SecretCipher } from '../../secret/secret-cipher';
import type { RoutedSecret } from '../../secret/secret-reference-checks';
import type { InboundContextStrategyEntity } from '../../inbound-context/inbound-context-strategy.entity';
import type { InboundMappingEntity } from '../../inbound-context/inbound-mapping.entity';
import { policyAssistantKey, policyAssistantsOf, type ResolvedMapping } from '../../inbound-context/lookup.repository';

/** The owner's signing secrets as stored on the user row (their grace period is judged at lookup time). */
export type OwnerSecrets = Pick<
  UserEntity,
  'user_id' | 'webhook_secret' | 'webhook_secret_previous' | 'webhook_secret_previous_expires_at'
>;

/**
 * The owner's shared record: its signing secrets, and `h` when it subscribes to endpoint-health
 * events (its lookups' entries are then counted; see `HealthSubscribers`).
 */
export type OwnerRecord = OwnerSecrets & { h?: 1 };

/**
 * Everything a lookup of one mapping needs, so it reads nothing else: the resolved mapping, the
 * owner's signing secrets and the values of the secrets the strategy's URL and headers reference
 * (absent names are secrets that no longer exist: the lookup fails `secret_not_found`).
 */
export interface Routing {
  found: ResolvedMapping;
  owner: OwnerRecord | null;
  secretValues: Record<string, RoutedSecret>;
}

/**
 * A number's entry, small and in clear (ids, the number, no configuration): what its mapping routes
 * to, by id. `t` is the ticket of the read it was written from; `d` marks a deleted mapping.
 */
export interface RoutingEntry {
  t: number;
  /** inbound_id, user_id, service, the normalized number. */
  i: string;
  u: string;
  c: string;
  p: string;
  /** The assistant, its pinned version, or its split as [version, weight] arms. */
  a?: string;
  v?: number;
  w?: [number | null, number][];
  s?: string;
  /** The policy, sealed like a shared record (under `FIELD.policy`): caller numbers stay out of the clear. */
  y?: string;
  /** The assistants the policy's actions name: [assistant, version or null for the working copy]. */
  q?: [string, number | null][];
  /** The split's guardrail: [max_error_rate, min_lookups, window_seconds]. */
  g?: [number, number, number];
  /** Inactive: routed by id only. */
  x?: 1;
  d?: 1;
}

/**
 * A strategy's shared record: the strategy and the secrets it references, each value with the
 * origins it may go to (a record without them, written before, resolves nothing: `blocked`).
 */
export interface StrategyRecord {
  strategy: InboundContextStrategyEntity;
  values: Record<string, RoutedSecret>;
}

/** The fields of the routing hash (one key: every field a lookup reads is in one hash slot). */
export const FIELD = {
  entry: (inboundId: string) => `e:${inboundId}`,
  number: (number: string) => `n:${number}`,
  assistant: (assistantId: string) => `a:${assistantId}`,
  version: (assistantId: string, version: number) => `v:${assistantId}:${version}`,
  strategy: (strategyId: string) => `s:${strategyId}`,
  owner: (userId: string) => `o:${userId}`,
  /** Not a field of its own: what an entry's sealed policy is bound to. */
  policy: (inboundId: string) => `p:${inboundId}`,
} as const;

/** The prefixes of the fields above: anything else in the hash (an older format's) is swept. */
export const FIELD_PREFIXES = ['e:', 'n:', 'a:', 'v:', 's:', 'o:'];

/** The entry of a resolved mapping, read under `ticket`. */
export function entryOf(
  found: ResolvedMapping,
  ticket: number,
  seal?: (field: string, value: object) => string,
): RoutingEntry {
  const m = found.mapping;
  const entry: RoutingEntry = {
    t: ticket,
    i: m.inbound_id,
    u: m.user_id,
    c: m.service,
    p: m.phone_number_normalized,
  };
  if (m.assistant_id) entry.a = m.assistant_id;
  if (m.assistant_version !== null && m.assistant_version !== undefined)
    entry.v = Number(m.assistant_version);
  if (m.assistant_variants?.length)
    entry.w = m.assistant_variants.map((arm) => [arm.assistant_version, arm.weight]);
  if (m.inbound_context_strategy_id) entry.s = m.inbound_context_strategy_id;
  if (m.policy && seal) {
    entry.y = seal(FIELD.policy(m.inbound_id), m.policy);
    const named = policyAssistantsOf(m);
    if (named.length) entry.q = named;
  }
  const g = m.guardrail;
  if (g && entry.w) entry.g = [g.max_error_rate, g.min_lookups, g.window_seconds];
  if (!m.active_phone_number) entry.x = 1;
  return entry;
}

/**
 * The shared records an entry names, in the order the lookup script reads them (the script
 * derives the same list from the entry: keep the two in step).
 */
export function recordFields(entry: RoutingEntry): string[] {
  const fields = [FIELD.owner(entry.u)];
  if (entry.a) {
    fields.push(FIELD.assistant(entry.a));
    if (entry.v !== undefined) fields.push(FIELD.version(entry.a, entry.v));
    for (const [version] of entry.w ?? [])
      if (version !== null) fields.push(FIELD.version(entry.a, version));
  }
  if (entry.s) fields.push(FIELD.strategy(entry.s));
  for (const [assistantId, version] of entry.q ?? []) {
    fields.push(FIELD.assistant(assistantId));
    if (version !== null) fields.push(FIELD.version(assistantId, version));
  }
  return fields;
}

/** The names of the secrets a strategy's URL and header values reference. */
export function referencedSecrets(strategy: InboundContextStrategyEntity | null): string[] {
  const config = strategy?.strategy_config;
  if (!config) return [];
  const texts = [config.url, ...Object.values(config.headers ?? {})];
  return [...new Set(texts.flatMap((text) => referencedNames(text)))];
}

/** As a shared record is kept: its ticket, its owner in clear (the cipher's associated data), the rest sealed. */
interface StoredRecord {
  t: number;
  u?: string;
  c?: string;
  d?: 1;
}

/** A shared record sealed (AES-256-GCM, bound to its owner and field): no secret is kept in clear. */
export function sealRecord(
  cipher: SecretCipher,
  field: string,
  userId: string,
  value: object,
  ticket: number,
): string {
  const stored: StoredRecord = {
    t: ticket,
    u: userId,
    c: cipher.encrypt(JSON.stringify(value), userId, field),
  };
  return JSON.stringify(stored);
}

/** A record that is gone (deleted), kept as its ticket so an older read does not put it back. */
export const tombstone = (ticket: number): string => JSON.stringify({ t: ticket, d: 1 });

/** What `sealRecord` stored under `field`; null for a deleted record. */
export function openRecord<T>(cipher: SecretCipher, field: string, text: string): T | null {
  const stored = JSON.parse(text) as StoredRecord;
  if (stored.d || !stored.c || !stored.u) return null;
  return JSON.parse(cipher.decrypt(stored.c, stored.u, field)) as T;
}

/** The mapping an entry stands for, as the lookup reads it. */
function mappingOf(entry: RoutingEntry): InboundMappingEntity {
  return {
    inbound_id: entry.i,
    user_id: entry.u,
    assistant_id: entry.a ?? null,
    assistant_version: entry.v ?? null,
    assistant_variants: entry.w?.map(([version, weight]) => ({
      assistant_version: version,
      weight,
    })),
    inbound_context_strategy_id: entry.s ?? null,
    guardrail: entry.g
      ? { max_error_rate: entry.g[0], min_lookups: entry.g[1], window_seconds: entry.g[2] }
      : null,
    service: entry.c,
    inbound_config: { phone_number: entry.p },
    phone_number_normalized: entry.p,
    is_active: !entry.x,
    active_phone_number: entry.x ? null : entry.p,
    policy: null,
  } as unknown as InboundMappingEntity;
}

/** Opens one record (by field): undefined when the table has none, null when it is gone (deleted). */
export type RecordReader = <T>(field: string) => T | null | undefined;

/**
 * The entry as the database has it now: deleting an assistant or a strategy detaches it from
 * every mapping in the same transaction, so a record that is gone reads as detached.
 */
function withoutGone(entry: RoutingEntry, read: RecordReader): RoutingEntry {
  const next = { ...entry };
  if (next.a && read(FIELD.assistant(next.a)) === null) {
    delete next.a;
    delete next.v;
    delete next.w;
  }
  if (next.s && read(FIELD.strategy(next.s)) === null) delete next.s;
  return next;
}

/**
 * The routing an entry and its records make, resolved exactly as the database read resolves the
 * mapping: a pin or a split needs the assistant's working copy; a pinned version that is gone
 * reads as the working copy; a split arm whose version is gone has no assistant.
 */
export function routingOf(stored: RoutingEntry, read: RecordReader): Routing {
  const entry = withoutGone(stored, read);
  const mapping = mappingOf(entry);
  const assistant = (entry.a && read<AssistantEntity>(FIELD.assistant(entry.a))) || null;
  const strategy = (entry.s && read<StrategyRecord>(FIELD.strategy(entry.s))) || null;
  const owner = read<OwnerRecord>(FIELD.owner(entry.u)) ?? {
    user_id: entry.u,
    webhook_secret: null,
    webhook_secret_previous: null,
    webhook_secret_previous_expires_at: null,
  };
  const expires = owner.webhook_secret_previous_expires_at;
  if (expires) owner.webhook_secret_previous_expires_at = new Date(expires);
  const base = { mapping, strategy: strategy?.strategy ?? null, owner: null };
  const policyAssistants = new Map<string, AssistantEntity | null>();
  for (const [assistantId, version] of entry.q ?? []) {
    const working = read<AssistantEntity>(FIELD.assistant(assistantId)) ?? null;
    policyAssistants.set(policyAssistantKey(assistantId, null), working);
    if (version !== null)
      policyAssistants.set(
        policyAssistantKey(assistantId, version),
        (working && read<AssistantEntity>(FIELD.version(assistantId, version))) ?? null,
      );
  }
  const routed = (found: ResolvedMapping): Routing => ({
    found: { ...found, policyAssistants },
    owner,
    secretValues: strategy?.values ?? {},
  });
  if (assistant && entry.a && entry.w?.length) {
    const variants = entry.w.map(([version, weight]) => ({
      assistant_version: version,
      weight,
      assistant:
        version === null
          ? assistant
          : (read<AssistantEntity>(FIELD.version(entry.a!, version)) ?? null),
    }));
    return routed({ ...base, assistant, version: null, variants });
  }
  const pinned =
    assistant && entry.a && entry.v !== undefined
      ? read<AssistantEntity>(FIELD.version(entry.a, entry.v))
      : undefined;
  if (pinned) return routed({ ...base, assistant: pinned, version: entry.v! });
  return routed({ ...base, assistant, version: null });
}
