import { isDeepStrictEqual } from 'node:util';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import {
  BUNDLE_TYPES,
  type BundleResource,
  type BundleType,
  type ConfigBundle,
} from './config-bundle.types';

export type ChangeAction = 'create' | 'update' | 'delete';

/** One change a bundle makes: `fields` are the top-level fields it sets (none for a delete). */
export interface ConfigChange {
  action: ChangeAction;
  resource_type: BundleType;
  name: string;
  fields: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `wanted` leaves `current` as it is: equal scalars and arrays, and for an object every key
 * it names equal in turn (an update merges an object key by key, so a key left out is left as is).
 */
export function sameAs(wanted: unknown, current: unknown): boolean {
  if (isObject(wanted) && isObject(current))
    return Object.entries(wanted).every(([key, value]) => sameAs(value, current[key]));
  return isDeepStrictEqual(wanted, current);
}

/** The current resource a bundle's name stands for: a mapping by its number's digits. */
function currentKeyOf(type: BundleType, current: Record<string, BundleResource>) {
  if (type !== 'inbound') return (name: string) => (name in current ? name : undefined);
  const byNumber = new Map(Object.keys(current).map((name) => [normalizePhoneNumber(name), name]));
  return (name: string) => byNumber.get(normalizePhoneNumber(name));
}

/**
 * Whether a field of a bundle's resource leaves the current one as it is. An assistant's `tools`
 * are a set: tools attached in one request have no order between them.
 */
function sameField(type: BundleType, field: string, wanted: unknown, current: unknown): boolean {
  if (type === 'assistants' && field === 'tools' && Array.isArray(wanted) && Array.isArray(current))
    return sameAs([...(wanted as string[])].sort(), [...(current as string[])].sort());
  return sameAs(wanted, current);
}

/**
 * The changes that turn `current` into `wanted`, in the order they apply (creates and updates of
 * tools, strategies, assistants, mappings; then deletes the other way round). Deletes only with
 * `prune`, and only in the parts the bundle holds (`parts`; default every part).
 */
export function diffBundles(
  current: ConfigBundle,
  wanted: Pick<ConfigBundle, BundleType>,
  prune: boolean,
  parts: ReadonlySet<BundleType> = new Set(BUNDLE_TYPES),
): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const kept = new Map<BundleType, Set<string>>();
  for (const type of BUNDLE_TYPES) {
    const keyOf = currentKeyOf(type, current[type]);
    const matched = new Set<string>();
    for (const [name, resource] of Object.entries(wanted[type])) {
      const key = keyOf(name);
      if (key === undefined) {
        changes.push({
          action: 'create',
          resource_type: type,
          name,
          fields: Object.keys(resource).sort(),
        });
        continue;
      }
      matched.add(key);
      const fields = Object.keys(resource)
        .filter((field) => !sameField(type, field, resource[field], current[type][key][field]))
        .sort();
      if (fields.length) changes.push({ action: 'update', resource_type: type, name: key, fields });
    }
    kept.set(type, matched);
  }
  if (!prune) return changes;
  for (const type of [...BUNDLE_TYPES].reverse()) {
    if (!parts.has(type)) continue;
    for (const name of Object.keys(current[type]).sort()) {
      if (!kept.get(type)?.has(name))
        changes.push({ action: 'delete', resource_type: type, name, fields: [] });
    }
  }
  return changes;
}
