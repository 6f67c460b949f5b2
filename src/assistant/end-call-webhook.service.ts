import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { ActivityLogInput } from '../activity-log/activity-log.service';
import { AttemptLedger, type OpenAttempt } from '../activity-log/attempt-ledger';
import type { JournalJob } from '../activity-log/attempt-journal';
import { endCallEntry } from '../activity-log/log-entries';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { classifyFailure, type ErrorClass } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { childTraceparent, traceOf, type TraceContext } from '../telemetry/trace-context';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { describeOutboundOutcome, statusCodeOf } from '../common/http/outbound-outcome';
import type { EndCallJobData, EndCallOutcome } from '../contracts/end-call-webhook.contract';
import { CallVersions } from '../call-version/call-versions';
import { SecretReferences } from '../secret/secret-references';
import { PublishedVersions } from './published-versions';
import { AssistantEntity } from './assistant.entity';

/** Per-attempt deadline of one delivery. */
export const END_CALL_TIMEOUT_MS = 10_000;
/** The receiver's answer is not used; anything larger than this is not worth reading. */
export const END_CALL_RESPONSE_MAX_BYTES = 64 * 1024;

/**
 * `retry`: worth another attempt (network error, timeout, 408, 429, 5xx).
 * `final`: another attempt would fail the same way (other 4xx, 3xx, a blocked address, an oversized answer).
 */
export type DeliveryVerdict = 'delivered' | 'retry' | 'final';

export function classifyDelivery(outcome: OutboundHttpResult): DeliveryVerdict {
  if (outcome.kind === 'response') {
    if (outcome.ok) return 'delivered';
    if (outcome.status === 408 || outcome.status === 429 || outcome.status >= 500) return 'retry';
    return 'final';
  }
  return outcome.kind === 'timeout' || outcome.kind === 'network' ? 'retry' : 'final';
}

export interface DeliveryAttempt {
  /** 1-based number of this attempt. */
  attempt: number;
  /** Attempts the job is allowed in total. */
  maxAttempts: number;
  /** Standard Webhooks `webhook-id`, the same on every attempt of one delivery. */
  webhookId: string;
  /** The delivery's trace (default: the one the job's `traceparent` names, else a new one). */
  trace?: TraceContext;
  /** The queue job making the attempt: the request is journaled under it before it is sent. */
  job?: JournalJob;
}

/**
 * The class of a delivery attempt's failure, null when it was delivered; a secret reference that
 * no longer resolves (`unresolved`: nothing was sent) is `config`. The job and the replay both
 * classify with this.
 */
export function deliveryErrorClass(
  outcome: OutboundHttpResult,
  unresolved = false,
): ErrorClass | null {
  if (unresolved) return 'config';
  const described = describeOutboundOutcome(outcome);
  return described.ok ? null : classifyFailure(described.kind, described.status_code);
}

/** A failed delivery in the operator's words (the log message and the job's `error`). */
export function failureReason(outcome: OutboundHttpResult): string {
  const described = describeOutboundOutcome(outcome);
  if (described.ok) return `HTTP ${described.status_code}`;
  switch (described.kind) {
    case 'http_error':
      return `HTTP ${described.status_code}`;
    case 'timeout':
      return 'timed out';
    case 'blocked':
      return 'address not allowed';
    case 'too_large':
      return 'response too large';
    case 'network_error':
      return `network error (${described.message})`;
  }
}

/** Where one delivery goes: the assistant's owner and the end-call URL of the call's version. */
interface Target {
  userId: string;
  assistantId: string;
  url: string;
  version: number | null;
}

/** An attempt that was made: the request as sent and what came back. */
interface Sent {
  target: Target;
  attempt: DeliveryAttempt;
  startedAt: Date;
  trace: TraceContext;
  outcome: OutboundHttpResult;
  /** A `{{secret.NAME}}` in the URL no longer resolved: nothing was sent. */
  unresolved: boolean;
}

/** What the journal keeps until the outcome is known (see `outcomeUnknown`). */
const PENDING_OUTCOME: OutboundHttpResult = { kind: 'network', message: 'sending', latencyMs: 0 };

/**
 * Delivers the call-ended payload to the assistant's `assistant_end_call_url`: one attempt per
 * call, one `end_call_webhook` entry per attempt. Whether a failed attempt is retried is the
 * processor's business (it schedules the next attempt itself); this says which failures are worth
 * it. Each request is journaled under its job before it is sent (`AttemptLedger`), so a job
 * redelivered after its worker died records the lost attempt (before it sends again, same
 * `webhook-id`, or before it ends when it sends nothing).
 */
@Injectable()
export class EndCallWebhookService {
  private readonly logger = new Logger(EndCallWebhookService.name);

  constructor(
    @InjectRepository(AssistantEntity) private readonly assistants: Repository<AssistantEntity>,
    private readonly attempts: AttemptLedger,
    private readonly http: OutboundHttpClient,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly secretRefs: SecretReferences,
    private readonly callVersions: CallVersions,
    private readonly published: PublishedVersions,
  ) {}

  /**
   * One attempt, to the end-call URL of the call's version (see `CallVersions`): the outcome's
   * `assistant_version` says which, and the service's own retries carry it.
   */
  async deliver(data: EndCallJobData, attempt: DeliveryAttempt): Promise<EndCallOutcome> {
    try {
      return await this.attempt(data, attempt);
    } finally {
      // Reads the journal only when this run journaled nothing (no request sent); see `AttemptLedger`.
      if (attempt.job) await this.attempts.recoverLost(attempt.job);
    }
  }

  private async attempt(data: EndCallJobData, attempt: DeliveryAttempt): Promise<EndCallOutcome> {
    const { version } = await this.callVersions.of(data);
    const target = await this.target(data, version);
    if (target === null || typeof target === 'string') {
      const error = target;
      return {
        status: 'skipped',
        status_code: null,
        attempt: attempt.attempt,
        error,
        error_class: error === null ? null : 'config',
        log_id: null,
        assistant_version: version,
      };
    }
    const sent = await this.send(data, target, attempt);
    const verdict = classifyDelivery(sent.outcome);
    const willRetry = verdict === 'retry' && attempt.attempt < attempt.maxAttempts;
    const entry = this.entry(data, sent, verdict, willRetry);
    const logId = await this.attempts.record(entry, sent.open);
    return {
      status: verdict === 'delivered' ? 'delivered' : verdict === 'retry' ? 'retry' : 'failed',
      status_code: statusCodeOf(sent.outcome),
      attempt: attempt.attempt,
      error: verdict === 'delivered' ? null : failureReason(sent.outcome),
      error_class: entry.error_class ?? null,
      log_id: logId,
      assistant_version: version,
    };
  }

  /** The delivery's target; a string says why there is none to send to, null: no URL set. */
  private async target(
    data: EndCallJobData,
    version: number | null,
  ): Promise<Target | string | null> {
    const assistant = await this.assistants.findOne({
      select: { assistant_id: true, user_id: true, assistant_end_call_url: true },
      where: { assistant_id: data.assistant_id },
    });
    if (!assistant) {
      this.logger.warn(
        { assistant_id: data.assistant_id, room_name: data.room_name },
        'end-call webhook for an unknown assistant',
      );
      return 'assistant not found';
    }
    let url = assistant.assistant_end_call_url;
    if (version !== null) {
      const found = await this.published.find(assistant.user_id, assistant.assistant_id, version);
      if (!found) {
        this.logger.warn(
          { assistant_id: data.assistant_id, assistant_version: version },
          'end-call webhook for an unknown assistant version',
        );
        return `assistant version ${version} not found`;
      }
      url = found.assistant.assistant_end_call_url;
    }
    if (!url) return null;
    return { userId: assistant.user_id, assistantId: assistant.assistant_id, url, version };
  }

  /** Sends the attempt, journaled first; a secret gone is a final failure with nothing sent. */
  private async send(
    data: EndCallJobData,
    target: Target,
    attempt: DeliveryAttempt,
  ): Promise<Sent & { open: OpenAttempt | null }> {
    const startedAt = new Date();
    const trace = attempt.trace ?? traceOf(data.traceparent);
    // {{secret.NAME}} in the URL resolved now, so a rotation reaches the next attempt.
    const request = await this.secretRefs.resolveRequest(target.userId, { url: target.url });
    // A secret not allowed for the URL's origin is `blocked`; one gone (or unsendable) is `config`.
    const unresolved = !request.ok && request.reason !== 'blocked';
    const sent = { target, attempt, startedAt, trace, unresolved };
    if (!request.ok)
      return {
        ...sent,
        outcome: { kind: 'blocked', message: request.error, latencyMs: 0 },
        open: null,
      };
    const signingSecrets = await this.webhookSecrets.signingSecretsFor(target.userId);
    const pending = this.entry(data, { ...sent, outcome: PENDING_OUTCOME }, 'retry', true);
    const open = attempt.job ? await this.attempts.begin(attempt.job, pending) : null;
    const outcome = await this.http.postJson({
      url: request.url,
      body: data.payload,
      timeoutMs: END_CALL_TIMEOUT_MS,
      maxResponseBytes: END_CALL_RESPONSE_MAX_BYTES,
      signingSecrets,
      webhookId: attempt.webhookId,
      traceparent: childTraceparent(trace),
    });
    return { ...sent, outcome, open };
  }

  private entry(
    data: EndCallJobData,
    sent: Sent,
    verdict: DeliveryVerdict,
    willRetry: boolean,
  ): ActivityLogInput {
    const { target, attempt, outcome } = sent;
    const what = `End-call webhook attempt ${attempt.attempt} of ${attempt.maxAttempts}`;
    const message =
      verdict === 'delivered'
        ? `${what} delivered (HTTP ${statusCodeOf(outcome)})`
        : `${what} failed: ${failureReason(outcome)}; ${willRetry ? 'will retry' : verdict === 'retry' ? 'no attempts left' : 'not retried'}`;
    return endCallEntry(
      {
        user_id: target.userId,
        status: verdict === 'delivered' ? 'success' : 'error',
        assistant_id: target.assistantId,
        room_name: data.room_name,
        message,
        timestamp: sent.startedAt,
        latency_ms: outcome.latencyMs,
        error_class: deliveryErrorClass(outcome, sent.unresolved),
        trace_id: sent.trace.trace_id,
      },
      {
        url: target.url,
        assistant_version: target.version,
        attempt: attempt.attempt,
        max_attempts: attempt.maxAttempts,
        webhook_id: attempt.webhookId,
        payload: data.payload,
      },
      outcome,
      willRetry,
    );
  }
}
