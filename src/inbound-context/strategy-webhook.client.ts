import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { childTraceparent } from '../common/http/trace-context';
import { referencedNames, substituteReferences } from '../common/secrets/secret-reference';
import type { AppConfig } from '../config/app-config';
import { SecretReferences, type ResolvedRequest } from '../secret/secret-references';
import { callStrategyWebhook, type StrategyWebhookOutcome } from './strategy-webhook';
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
    { user_id, payload, trace }: Pick<StrategyRequest, 'user_id' | 'payload' | 'trace'>,
    config: WebhookCallConfig,
    signingSecrets: readonly string[],
    /** The referenced secrets' values, already read (the routing table's): no database read. */
    secretValues?: Readonly<Record<string, string>>,
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
          signingSecrets,
          this.maxResponseBytes,
          traceparent,
          webhookId,
        )
      : lookupFailure('secret_not_found', `${request.error}; the webhook was not called`);
    // Values read earlier wrote no stamp: the use is recorded for the next batch of stamps.
    if (secretValues && request.ok) this.secretRefs.usedFromCopy(user_id, request.secrets_used);
    return { outcome, secretsUsed: request.secrets_used };
  }
}

/** `SecretReferences.resolveRequest` over values already read; a name without a value is a secret that is gone. */
export function resolveWithValues(
  { url, headers }: { url: string; headers: Record<string, string> },
  secretValues: Readonly<Record<string, string>>,
): ResolvedRequest {
  const names = [...new Set([url, ...Object.values(headers)].flatMap((t) => referencedNames(t)))];
  const missing = names.filter((name) => !Object.hasOwn(secretValues, name));
  if (missing.length)
    return { ok: false, error: `secret ${missing.join(', ')} does not exist`, secrets_used: names };
  const values = new Map(Object.entries(secretValues));
  return {
    ok: true,
    url: substituteReferences(url, values, 'url'),
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        substituteReferences(value, values, 'text'),
      ]),
    ),
    secrets_used: names,
  };
}
