import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * The audit entries that are configuration changes: every resource a bundle holds (secrets by
 * name). Keys and the webhook secret are not configuration.
 */
const CONFIG_RESOURCE_TYPES = [
  'assistant',
  'tool',
  'inbound_context_strategy',
  'inbound',
  'secret',
];

/**
 * The caller's configuration revision, from its audit trail: every configuration write records an
 * entry in its own transaction, so the newest entry's id and the number of entries change with
 * every change (a retention purge changes it too, which only makes a held revision stale). Opaque:
 * a digest, so nothing reads meaning into it. Read with `em` inside a transaction to see its writes.
 */
export async function configRevision(
  db: DataSource | EntityManager,
  userId: string,
): Promise<string> {
  const rows = await db.query<
    Array<{ last_id: string | number | null; entries: string | number | null }>
  >(
    `SELECT MAX(id) AS last_id, COUNT(*) AS entries FROM audit_entries WHERE user_id = ? AND resource_type IN (${CONFIG_RESOURCE_TYPES.map(() => '?').join(', ')})`,
    [userId, ...CONFIG_RESOURCE_TYPES],
  );
  const row = rows[0] ?? { last_id: null, entries: 0 };
  const basis = `${String(row.last_id ?? 0)}:${String(row.entries ?? 0)}`;
  return createHash('sha256').update(`${userId}:${basis}`).digest('base64url').slice(0, 22);
}
