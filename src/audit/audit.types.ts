/** What an audit entry records. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'publish',
  'attach',
  'detach',
  'assign',
  'rotate',
  'revoke',
  'revert',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of record an audit entry is about. */
export const AUDIT_RESOURCE_TYPES = [
  'assistant',
  'tool',
  'inbound_context_strategy',
  'inbound',
  'secret',
  'api_key',
  'webhook_secret',
  'event_subscription',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** One field's change; values as the resource's reads show them (secrets masked). */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}
