import { createHash } from 'node:crypto';

/**
 * What makes two tool calls the same call, whatever their `tool_call_id` (a call the model issues
 * again gets a new one): the tool's owner, the room, the tool and the values of the arguments its
 * `dedupe_key` selects (every argument when it has none), a missing path counting as null.
 */
export interface CallIdentitySource {
  userId: string;
  roomName: string;
  toolId: string;
  dedupeKey: string[] | null;
  arguments: Record<string, unknown>;
}

/** The identity's digest: 43 base64url characters (SHA-256), the same in every process. */
export function callIdentity(source: CallIdentitySource): string {
  const selected = source.dedupeKey
    ? source.dedupeKey.map((path) => valueAt(source.arguments, path))
    : source.arguments;
  const seed = canonicalJson([source.userId, source.roomName, source.toolId, selected]);
  return createHash('sha256').update(seed).digest('base64url');
}

/** The value at a dotted path (`customer.phone`); null when any step is missing. */
export function valueAt(args: Record<string, unknown>, path: string): unknown {
  let value: unknown = args;
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    if (!Object.prototype.hasOwnProperty.call(value, step)) return null;
    value = (value as Record<string, unknown>)[step];
  }
  return value === undefined ? null : value;
}

/** JSON with every object's keys in code-point order, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${fields.join(',')}}`;
}
