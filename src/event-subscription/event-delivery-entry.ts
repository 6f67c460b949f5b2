import type { ActivityLogInput } from '../activity-log/activity-log.service';
import { outboundResponseData, type OutboundResponseData } from '../activity-log/log-entries';
import type { ErrorClass } from '../contracts/error-class';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { redactUrl } from '../common/secrets/redaction';
import type { TenantEvent } from './event-subscription.types';

/** `request_data` of an `event_delivery` entry. */
export type EventDeliveryRequestData = {
  subscription_id: string;
  event_id: string;
  event_type: string;
  url: string | null;
  attempt: number;
  max_attempts: number;
  /** Standard Webhooks `webhook-id`: the same on every attempt and replay of one delivery. */
  webhook_id: string;
  payload: TenantEvent;
};

export type EventDeliveryResponseData = OutboundResponseData & { will_retry: boolean };

/** One attempt to deliver an event to a subscription: an entry of `log_type: "event_delivery"`. */
export function eventDeliveryEntry(
  head: {
    user_id: string;
    message: string;
    timestamp: Date;
    error_class: ErrorClass | null;
    trace_id?: string | null;
  },
  delivery: Omit<EventDeliveryRequestData, 'url' | 'event_id' | 'event_type'> & { url: string },
  outcome: OutboundHttpResult,
  willRetry: boolean,
): ActivityLogInput {
  const request_data: EventDeliveryRequestData = {
    subscription_id: delivery.subscription_id,
    event_id: delivery.payload.id,
    event_type: delivery.payload.type,
    url: redactUrl(delivery.url),
    attempt: delivery.attempt,
    max_attempts: delivery.max_attempts,
    webhook_id: delivery.webhook_id,
    payload: delivery.payload,
  };
  const response_data: EventDeliveryResponseData = {
    ...outboundResponseData(outcome),
    will_retry: willRetry,
  };
  return {
    ...head,
    status: head.error_class === null ? 'success' : 'error',
    log_type: 'event_delivery',
    assistant_id: null,
    room_name: '',
    latency_ms: outcome.latencyMs,
    request_data,
    response_data,
    request_body: JSON.stringify(delivery.payload),
  };
}
