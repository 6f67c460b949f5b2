import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { childTraceparent } from '../telemetry/trace-context';
import type { AppConfig } from '../config/app-config';
import {
  resolveTemplate,
  type ResolvedRequest,
  type RoutedSecret,
} from '../secret/secret-reference-checks';
import { SecretReferences } from '../secret/secret-references';
import {
  callStrategyWebhook,
  type StrategyWebhookOutcome,
  type StrategyWebhookSend,
} from './strategy-webhook';
import {
  lookupFailure,
  type StrategyRequest,
  type WebhookCallConfig,
} from './utils/lookup-plan.util';

/** One strategy webhook call as made, with the names of the secrets its URL and headers used. */
export interface StrategyWebhookCall {
  outcome: StrategyWebhookOutcome;
  secretsUsed: string[];
}

/**
 * A strategy's webhook, called for a lookup or a dry run: its `{{secret.NAME}}` references
 * resolved for this request (a secret that no longer exists fails the call before anything is
 * sent), its answer bounded by `MAX_CONTEXT_RESPONSE_BYTES`. The secrets it sent have their
 * `last_used_at` stamped (in a batch, off the lookup's path, when their values came with the call).
 */
@Injectable()
export class StrategyWebhookClient {
  private readonly maxResponseBytes: number;

  constructor(
    private readonly http: OutboundHttpClient,
    private readonly secretRefs: SecretReferences,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxResponseBytes = config.get('limits.maxContextResponseBytes', { infer: true });
  }

  async call(
    {
      user_id,
      payload,
      trace,
      settle,
    }: Pick<StrategyRequest, 'user_id' | 'payload' | 'trace'> & Pick<StrategyWebhookSend, 'settle'>,
    config: WebhookCallConfig,
    signingSecrets: readonly string[],
    /** The referenced secrets, already read (the routing table's): no database read. */
    secretValues?: Readonly<Record<string, RoutedSecret>>,
    /** The request's `webhook-id` (a lookup job's own); a new one when absent (the dry run). */
    webhookId?: string,
  ): Promise<StrategyWebhookCall> {
    const traceparent = childTraceparent(trace);
    const target = { url: config.url, headers: config.headers };
    const request = secretValues
      ? resolveWithValues(target, secretValues)
      : await this.secretRefs.resolveRequest(user_id, target);
    const outcome = request.ok
      ? await callStrategyWebhook(
          this.http,
          { ...config, url: request.url, headers: request.headers },
          payload,
          {
            signingSecrets,
            maxResponseBytes: this.maxResponseBytes,
            traceparent,
            webhookId,
            settle,
          },
        )
      : lookupFailure(
          // A value a header cannot carry is, like a secret gone, the owner's configuration to fix.
          request.reason === 'blocked' ? 'blocked' : 'secret_not_found',
          `${request.error}; the webhook was not called`,
        );
    // Values read earlier wrote no stamp: the use is recorded for the next batch of stamps.
    if (secretValues && request.ok) this.secretRefs.usedFromCopy(user_id, request.secrets_used);
    return { outcome, secretsUsed: request.secrets_used };
  }
}

/** `SecretReferences.resolveRequest` over secrets already read; a name without one is a secret that is gone. */
export function resolveWithValues(
  target: { url: string; headers: Record<string, string> },
  secretValues: Readonly<Record<string, RoutedSecret>>,
): ResolvedRequest {
  return resolveTemplate(target, new Map(Object.entries(secretValues)));
}
