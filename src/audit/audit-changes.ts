import type { AuditChange } from './audit.types';

/** Stamps every write renews: the entry's own timestamp says when, so they are left out. */
const LEFT_OUT = new Set(['created_at', 'updated_at']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A view's leaves by dotted path (`strategy_config.headers.Authorization`). Objects are walked;
 * arrays and scalars are leaves, so a changed list is one change with the whole list each side.
 */
export function flattenView(view: unknown, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (!isPlainObject(view)) {
    if (prefix) leaves.set(prefix, view);
    return leaves;
  }
  for (const [key, value] of Object.entries(view)) {
    if (!prefix && LEFT_OUT.has(key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [leaf, leafValue] of flattenView(value, path)) leaves.set(leaf, leafValue);
    } else {
      leaves.set(path, value);
    }
  }
  return leaves;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between two views of a record (the views its reads return, so secrets
 * are already masked there), in the order they appear. `before` is null for a new record, `after`
 * null for a deleted one; a field absent on one side is null there.
 */
export function diffViews(before: unknown, after: unknown): AuditChange[] {
  const old = flattenView(before);
  const now = flattenView(after);
  const changes: AuditChange[] = [];
  for (const field of new Set([...old.keys(), ...now.keys()])) {
    const was = old.has(field) ? old.get(field) : null;
    const is = now.has(field) ? now.get(field) : null;
    if (!same(was, is)) changes.push({ field, before: was ?? null, after: is ?? null });
  }
  return changes;
}
