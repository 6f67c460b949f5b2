import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ActivityLogService, type SentRequestEntry } from '../activity-log/activity-log.service';
import { AppException } from '../common/errors/app.exception';
import {
  END_CALL_RESPONSE_MAX_BYTES,
  END_CALL_TIMEOUT_MS,
  classifyDelivery,
  type DeliveryVerdict,
  deliveryErrorClass,
  failureReason,
} from '../assistant/end-call-webhook.service';
import type { ErrorClass } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { statusCodeOf } from '../common/http/outbound-outcome';
import { childTraceparent, traceOf } from '../telemetry/trace-context';
import { SecretCipher } from '../secret/secret-cipher';
import { SecretReferences } from '../secret/secret-references';
import { eventDeliveryEntry } from './event-delivery-entry';
import type { EventSubscriptionEntity } from './event-subscription.entity';
import { EventSubscriptionRepository } from './event-subscription.repository';
import type { TenantEvent } from './event-subscription.types';

/** The name a subscription's secret is encrypted under (bound to its owner and row). */
export const subscriptionSecretName = (subscriptionId: string): string =>
  `event_subscription:${subscriptionId}`;

/**
 * The `webhook-id` of one event's delivery to one subscription: derived from both, so every
 * attempt, every process that noticed the event and every replay send the same one.
 */
export function eventWebhookId(subscriptionId: string, eventId: string): string {
  const digest = createHash('sha256').update(`${subscriptionId}:${eventId}`).digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}

export interface EventAttempt {
  /** 1-based number of this attempt. */
  attempt: number;
  maxAttempts: number;
  /** Set on a replay: the entry it sends again. */
  replayOf?: string;
}

export interface EventDeliveryOutcome {
  status: 'delivered' | 'retry' | 'failed';
  status_code: number | null;
  error: string | null;
  error_class: ErrorClass | null;
  log_id: string | null;
}

/**
 * Sends one event to one subscription, one attempt: the JSON body signed (Standard Webhooks) with
 * the subscription's own secret, through the outbound client (which refuses private addresses at
 * connect time), with the end-call delivery's deadline and its verdicts (`classifyDelivery`).
 * Each attempt is an `event_delivery` entry; whether to retry is the caller's business.
 */
@Injectable()
export class EventDelivery {
  constructor(
    private readonly cipher: SecretCipher,
    private readonly http: OutboundHttpClient,
    private readonly secretRefs: SecretReferences,
    private readonly activityLog: ActivityLogService,
    private readonly subscriptions: EventSubscriptionRepository,
  ) {}

  /** The subscription's signing secret, in clear, for this send only. */
  signingSecret(subscription: EventSubscriptionEntity): string {
    return this.cipher.decrypt(
      subscription.secret,
      subscription.user_id,
      subscriptionSecretName(subscription.subscription_id),
    );
  }

  /**
   * `POST /logs/replay/:log_id` of an `event_delivery` entry: the logged event, sent again to the
   * subscription as it is now (its URL and secret) with the same `webhook-id`; the new entry's id.
   */
  async replay(userId: string, entry: SentRequestEntry, payload: unknown): Promise<string | null> {
    const logged = entry.request_data?.subscription_id;
    const subscriptionId = typeof logged === 'string' ? logged : '';
    const subscription = await this.subscriptions.findOwned(userId, subscriptionId);
    if (!subscription)
      throw AppException.conflict(
        `Event subscription ${subscriptionId} no longer exists: there is nothing to send to`,
      );
    const sent = await this.attempt(subscription, payload as TenantEvent, {
      attempt: 1,
      maxAttempts: 1,
      replayOf: entry.log_id,
    });
    return sent.log_id;
  }

  async attempt(
    subscription: EventSubscriptionEntity,
    event: TenantEvent,
    attempt: EventAttempt,
  ): Promise<EventDeliveryOutcome> {
    const startedAt = new Date();
    const trace = traceOf(undefined);
    const webhookId = eventWebhookId(subscription.subscription_id, event.id);
    // {{secret.NAME}} in the URL resolved now, as for every other webhook URL.
    const request = await this.secretRefs.resolveRequest(subscription.user_id, {
      url: subscription.url,
    });
    const outcome: OutboundHttpResult = request.ok
      ? await this.http.postJson({
          url: request.url,
          body: event,
          timeoutMs: END_CALL_TIMEOUT_MS,
          maxResponseBytes: END_CALL_RESPONSE_MAX_BYTES,
          signingSecrets: [this.signingSecret(subscription)],
          webhookId,
          traceparent: childTraceparent(trace),
        })
      : { kind: 'blocked', message: request.error, latencyMs: 0 };
    const unresolved = !request.ok && request.reason !== 'blocked';
    const verdict: DeliveryVerdict = unresolved ? 'final' : classifyDelivery(outcome);
    const willRetry = verdict === 'retry' && attempt.attempt < attempt.maxAttempts;
    const errorClass = deliveryErrorClass(outcome, unresolved);
    const message = describe(event, attempt, outcome, verdict, willRetry);
    const entry = eventDeliveryEntry(
      {
        user_id: subscription.user_id,
        message,
        timestamp: startedAt,
        error_class: errorClass,
        trace_id: trace.trace_id,
      },
      {
        subscription_id: subscription.subscription_id,
        url: subscription.url,
        attempt: attempt.attempt,
        max_attempts: attempt.maxAttempts,
        webhook_id: webhookId,
        payload: event,
      },
      outcome,
      willRetry,
    );
    const logId = await this.activityLog.record({
      ...entry,
      ...(attempt.replayOf ? { replay_of: attempt.replayOf } : {}),
    });
    return {
      status: verdict === 'delivered' ? 'delivered' : verdict === 'retry' ? 'retry' : 'failed',
      status_code: statusCodeOf(outcome),
      error: verdict === 'delivered' ? null : failureReason(outcome),
      error_class: errorClass,
      log_id: logId,
    };
  }
}

/** The entry's message: which event, which attempt, and how it went. */
function describe(
  event: TenantEvent,
  attempt: EventAttempt,
  outcome: OutboundHttpResult,
  verdict: DeliveryVerdict,
  willRetry: boolean,
): string {
  const what = `${attempt.replayOf ? `Replay of entry ${attempt.replayOf}: event` : 'Event'} ${event.type} (${event.id}) attempt ${attempt.attempt} of ${attempt.maxAttempts}`;
  if (verdict === 'delivered') return `${what} delivered (HTTP ${statusCodeOf(outcome)})`;
  const next = willRetry ? 'will retry' : verdict === 'retry' ? 'no attempts left' : 'not retried';
  return `${what} failed: ${failureReason(outcome)}; ${next}`;
}
