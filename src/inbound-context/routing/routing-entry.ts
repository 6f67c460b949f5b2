import type { UserEntity } from '../../auth/user.entity';
import { referencedNames } from '../../common/secrets/secret-reference';
import type { SecretCipher } from '../../secret/secret-cipher';
import type { ResolvedMapping } from '../lookup.repository';

/** Bumped whenever the stored shape changes: a process never reads another version's entries. */
export const ROUTING_FORMAT = 'r1';

/** The owner's signing secrets as stored on the user row (their grace period is judged at lookup time). */
export type OwnerSecrets = Pick<
  UserEntity,
  'user_id' | 'webhook_secret' | 'webhook_secret_previous' | 'webhook_secret_previous_expires_at'
>;

/**
 * Everything a lookup of one mapping needs, so it reads nothing else: the resolved mapping, the
 * owner's signing secrets and the values of the secrets the strategy's URL and headers reference
 * (absent names are secrets that no longer exist: the lookup fails `secret_not_found`).
 */
export interface Routing {
  found: ResolvedMapping;
  owner: OwnerSecrets | null;
  secretValues: Record<string, string>;
}

/** As kept in the store: the owner in clear (the cipher's associated data), the rest encrypted. */
interface StoredRouting {
  u: string;
  c: string;
}

/** The table's fields naming a mapping: by id always, by number while it is active. */
export function routingFields(found: ResolvedMapping): string[] {
  const { inbound_id, active_phone_number } = found.mapping;
  const fields = [`${ROUTING_FORMAT}:id:${inbound_id}`];
  if (active_phone_number) fields.push(`${ROUTING_FORMAT}:number:${active_phone_number}`);
  return fields;
}

/** The names of the secrets a strategy's URL and header values reference. */
export function referencedSecrets(found: ResolvedMapping): string[] {
  const config = found.strategy?.strategy_config;
  if (!config) return [];
  const texts = [config.url, ...Object.values(config.headers ?? {})];
  return [...new Set(texts.flatMap((text) => referencedNames(text)))];
}

/** Serializes `routing` encrypted (AES-256-GCM, bound to its owner and field): no secret is kept in clear. */
export function sealRouting(cipher: SecretCipher, field: string, routing: Routing): string {
  const userId = routing.found.mapping.user_id;
  const stored: StoredRouting = {
    u: userId,
    c: cipher.encrypt(JSON.stringify(routing), userId, field),
  };
  return JSON.stringify(stored);
}

/** The routing `sealRouting` stored under `field` (dates come back as dates where a lookup judges them). */
export function openRouting(cipher: SecretCipher, field: string, text: string): Routing {
  const stored = JSON.parse(text) as StoredRouting;
  const routing = JSON.parse(cipher.decrypt(stored.c, stored.u, field)) as Routing;
  const expires = routing.owner?.webhook_secret_previous_expires_at;
  if (routing.owner && expires)
    routing.owner.webhook_secret_previous_expires_at = new Date(expires);
  return routing;
}
