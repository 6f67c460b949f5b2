/**
 * The events a tenant can subscribe to. `ping` is not among them: `POST /event-subscription/test/:id`
 * sends it to the one subscription it names.
 */
export const SUBSCRIBABLE_EVENTS = [
  'config.changed',
  'endpoint.unhealthy',
  'endpoint.recovered',
  'split.reverted',
  'number.overflow',
  'check.failed',
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

export type TenantEventType = SubscribableEvent | 'ping';

/** The body every delivery sends, signed as it is serialized. */
export interface TenantEvent {
  /** `evt_...`: one per event, the same in every subscription's delivery of it. */
  id: string;
  type: TenantEventType;
  /** ISO 8601, UTC: when the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** Events per subscription. */
export const MAX_SUBSCRIPTION_EVENTS = SUBSCRIBABLE_EVENTS.length;
/** A subscription's URL, as long as an end-call URL may be. */
export const SUBSCRIPTION_URL_MAX_LENGTH = 2048;
export const SUBSCRIPTION_DESCRIPTION_MAX_LENGTH = 500;
/** Subscriptions one user may hold: each event fans out to every one of them. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;
