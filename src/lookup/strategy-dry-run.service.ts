import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AssistantRepository } from '../assistant/assistant.repository';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { AppException } from '../common/errors/app.exception';
import { traceOf } from '../telemetry/trace-context';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import type { AppConfig } from '../config/app-config';
import { InboundContextStrategyService } from '../inbound-context/inbound-context-strategy.service';
import { LookupRepository } from '../inbound-context/lookup.repository';
import { readStrategyConfig } from '../inbound-context/utils/read-strategy-config.util';
import type { TestStrategyDto, TestStrategyResultDto } from './dto/test-strategy.dto';
import type { StrategyWebhookOutcome } from './strategy-webhook';
import { StrategyWebhookClient } from './strategy-webhook.client';
import { settlerOf } from './utils/lookup-outcome.util';
import { buildPayload, callVariables, lookupFailure } from './utils/lookup-plan.util';
import { toDryRunResult } from './utils/to-dry-run-result.util';

/**
 * `POST /inbound_context_strategy/test/:id`: the real webhook call with a sample payload
 * (`dry_run: true`), whether or not the strategy is active, and a prompt preview. No log entry.
 */
@Injectable()
export class StrategyDryRunService {
  private readonly maxPromptBytes: number;

  constructor(
    private readonly strategies: InboundContextStrategyService,
    private readonly lookups: LookupRepository,
    private readonly assistants: AssistantRepository,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly webhook: StrategyWebhookClient,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxPromptBytes = config.get('limits.maxRenderedPromptBytes', { infer: true });
  }

  async dryRun(
    userId: string,
    strategyId: string,
    dto: TestStrategyDto,
  ): Promise<TestStrategyResultDto> {
    const strategy = await this.strategies.findOwned(userId, strategyId);
    const mapping = await this.lookups.newestUsing(userId, strategyId);
    const assistantId = dto.assistant_id ?? mapping?.assistant_id ?? null;
    const assistant = assistantId ? await this.assistants.findOwned(userId, assistantId) : null;
    if (dto.assistant_id && !assistant) throw AppException.notFound('Assistant');
    const config = readStrategyConfig(strategy.strategy_config);
    const call = {
      room_name: `dry-run-${randomUUID()}`,
      caller_number: dto.caller_number ?? '+10000000000',
    };
    const sampleMapping = {
      inbound_id: mapping?.inbound_id ?? '',
      phone_number_normalized: dto.inbound_number
        ? normalizePhoneNumber(dto.inbound_number)
        : (mapping?.phone_number_normalized ?? '10000000000'),
      assistant_id: assistant?.assistant_id ?? null,
    };
    const payload = {
      ...buildPayload(call, sampleMapping, assistant, strategy, strategyId),
      dry_run: true,
    };
    // The same decision as a lookup's: a context whose prompt would not fit is not used (the
    // client span's error.type says so too).
    const settle = settlerOf(
      { assistant, call: callVariables(call, sampleMapping) },
      config.fallback_context,
      this.maxPromptBytes,
    );
    let outcome: StrategyWebhookOutcome;
    let secretsUsed: string[] = [];
    if (!config.url) outcome = lookupFailure('missing_url', 'the strategy has no URL');
    else {
      const secrets = await this.webhookSecrets
        .signingSecretsFor(userId)
        .catch(() => [] as string[]);
      ({ outcome, secretsUsed } = await this.webhook.call(
        {
          user_id: userId,
          payload,
          trace: traceOf(undefined),
          settle: (judged) => settle(judged).outcome,
        },
        { ...config, url: config.url },
        secrets,
      ));
    }
    const settled = settle(outcome);
    const assistantIdUsed = assistant?.assistant_id ?? null;
    return toDryRunResult({ settled, assistantId: assistantIdUsed, config, payload, secretsUsed });
  }
}
