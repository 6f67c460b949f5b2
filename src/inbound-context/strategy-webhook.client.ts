import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { childTraceparent } from '../common/http/trace-context';
import type { AppConfig } from '../config/app-config';
import { SecretReferences } from '../secret/secret-references';
import { callStrategyWebhook, type StrategyWebhookOutcome } from './strategy-webhook';
import type { WebhookCallConfig } from './utils/decide-lookup.util';
import { lookupFailure } from './utils/lookup-failure.util';
import type { StrategyRequest } from './utils/strategy-request.util';

/** One strategy webhook call as made, with the names of the secrets its URL and headers used. */
export interface StrategyWebhookCall {
  outcome: StrategyWebhookOutcome;
  secretsUsed: string[];
}

/**
 * A strategy's webhook, called for a lookup or a dry run: its `{{secret.NAME}}` references
 * resolved for this request (a secret that no longer exists fails the call before anything is
 * sent), its answer bounded by `MAX_CONTEXT_RESPONSE_BYTES`.
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
  ): Promise<StrategyWebhookCall> {
    const traceparent = childTraceparent(trace);
    const request = await this.secretRefs.resolveRequest(user_id, {
      url: config.url,
      headers: config.headers,
    });
    const outcome = request.ok
      ? await callStrategyWebhook(
          this.http,
          { ...config, url: request.url, headers: request.headers },
          payload,
          signingSecrets,
          this.maxResponseBytes,
          traceparent,
        )
      : lookupFailure('secret_not_found', `${request.error}; the webhook was not called`);
    return { outcome, secretsUsed: request.secrets_used };
  }
}
