import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ActivityLogService } from '../activity-log/activity-log.service';
import { lookupEntry } from '../activity-log/log-entries';
import { AssistantRepository, type AssistantRecord } from '../assistant/assistant.repository';
import { WebhookSecretsService, type UserRecord } from '../auth/webhook-secrets.service';
import { AppException } from '../common/errors/app.exception';
import { loggableError } from '../common/errors/loggable-error';
import { classifyFailure } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { childTraceparent, traceOf } from '../common/http/trace-context';
import { redactHeaders } from '../common/secrets/masking';
import { redactUrl } from '../common/secrets/redaction';
import type { AppConfig } from '../config/app-config';
import type {
  InboundContextLookupErrorKind,
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../contracts/inbound-context-lookup.contract';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS } from '../contracts/queues';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { RoomVersions } from '../call-version/room-versions';
import { SecretReferences } from '../secret/secret-references';
import {
  type CallVariables,
  type RenderedAssistantTemplates,
  renderAssistantTemplates,
} from '../assistant/prompt-render';
import type { TestStrategyDto, TestStrategyResultDto } from './dto/test-strategy.dto';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundContextStrategyService } from './inbound-context-strategy.service';
import type { InboundMappingEntity } from './inbound-mapping.entity';
import { LookupCache } from './lookup-cache';
import { LookupRepository, type ResolvedMapping } from './lookup.repository';
import { readStrategyConfig, type StrategyConfig } from './utils/read-strategy-config.util';
import { callStrategyWebhook, type StrategyWebhookOutcome } from './strategy-webhook';
import { chooseAssistant } from './variant-choice';

interface Failure {
  kind: InboundContextLookupErrorKind;
  message: string;
  status_code?: number;
  latency_ms: number;
}

/** Time kept back from the producer's deadline to write the log entry and deliver the result. */
const RESULT_DELIVERY_MARGIN_MS = 250;

/**
 * Runs one inbound context lookup: mapping → assistant → strategy → webhook → rendered prompt →
 * activity-log entry. Never throws for anything a customer or their data can cause: every outcome
 * is a result the call worker can start the call with.
 */
@Injectable()
export class InboundContextLookupService {
  private readonly logger = new Logger(InboundContextLookupService.name);
  private readonly maxPromptBytes: number;
  private readonly maxResponseBytes: number;

  constructor(
    private readonly lookups: LookupRepository,
    private readonly assistants: AssistantRepository,
    private readonly strategies: InboundContextStrategyService,
    private readonly http: OutboundHttpClient,
    private readonly activityLog: ActivityLogService,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly cache: LookupCache<ResolvedMapping>,
    config: ConfigService<AppConfig, true>,
    private readonly secretRefs: SecretReferences,
    private readonly rooms: RoomVersions,
  ) {
    this.maxPromptBytes = config.get('limits.maxRenderedPromptBytes', { infer: true });
    this.maxResponseBytes = config.get('limits.maxContextResponseBytes', { infer: true });
  }

  /**
   * `enqueuedAt` (when the job was added) bounds a job that carries no `deadline_at`: it may not
   * start its webhook call later than the job timeout after it was queued.
   */
  async run(
    data: InboundContextLookupJobData,
    { enqueuedAt = Date.now() }: { enqueuedAt?: number } = {},
  ): Promise<InboundContextLookupResult> {
    const deadline = data.deadline_at ?? enqueuedAt + INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS.timeout;
    const found = await this.cache.get(mappingKey(data), () => this.lookups.resolve(data));
    const mapping = found?.mapping;
    if (!found || !mapping) {
      const what = data.inbound_id
        ? `inbound_id ${data.inbound_id}`
        : `inbound_number ${data.inbound_number ?? ''}`;
      return errorResult({
        kind: 'mapping_not_found',
        message: `no inbound mapping for ${what}`,
        latency_ms: 0,
      });
    }
    const strategyId = mapping.inbound_context_strategy_id;
    const { strategy } = found;
    // The pin, or this caller's arm of the split; the call's later jobs run the same version.
    const chosen = chooseAssistant(found, data);
    const { assistant } = chosen;
    if (assistant)
      await this.rooms.remember(assistant.assistant_id, data.room_name, chosen.version);
    const secrets = strategyId && found.owner ? await this.signingSecrets(found.owner) : [];
    const base = {
      assistant_id: assistant?.assistant_id ?? mapping.assistant_id,
      assistant_name: assistant?.assistant_name ?? null,
      assistant_version: chosen.version,
      variant: chosen.variant,
      inbound_id: mapping.inbound_id,
      strategy_id: strategyId,
    };
    const call = callVariables(data, mapping);

    if (!strategyId) {
      if (!assistant) {
        return {
          ...errorResult({
            kind: 'assistant_not_found',
            message: 'the inbound mapping has no assistant',
            latency_ms: 0,
          }),
          ...base,
        };
      }
      const templates = this.render(assistant, null, call);
      const tooLong = templates.exceeded.length > 0;
      return {
        ...base,
        status: tooLong ? 'error' : 'skipped',
        context: null,
        prompt: templates.prompt,
        start_instruction: templates.start_instruction,
        fallback_used: false,
        latency_ms: 0,
        error: tooLong
          ? `prompt_too_large: ${this.tooLongMessage(templates, 'the call values')}; the text is cut there`
          : null,
        error_class: tooLong ? classifyFailure('prompt_too_large') : null,
        log_id: null,
      };
    }

    const config = readStrategyConfig(strategy?.strategy_config);
    const payload = buildPayload(data, mapping, assistant, strategy, strategyId);
    const trace = traceOf(data.traceparent);

    let outcome: StrategyWebhookOutcome;
    if (!assistant)
      outcome = failure('assistant_not_found', 'the inbound mapping has no assistant');
    else if (!strategy)
      outcome = failure('strategy_not_found', `strategy ${strategyId} no longer exists`);
    else if (!strategy.is_active)
      outcome = failure(
        'strategy_inactive',
        'the strategy is inactive; the webhook was not called',
      );
    else if (!config.url)
      outcome = failure('missing_url', 'the strategy has no URL; the webhook was not called');
    else if (Date.now() >= deadline - RESULT_DELIVERY_MARGIN_MS)
      outcome = failure(
        'expired',
        `the producer's deadline passed ${Math.max(0, Date.now() - deadline)} ms before the lookup started; the webhook was not called`,
      );
    else {
      // End the webhook call early enough for the result to reach the producer before it stops waiting.
      const budgetMs = deadline - RESULT_DELIVERY_MARGIN_MS - Date.now();
      const budgetSeconds = Math.min(config.timeout_seconds, budgetMs / 1000);
      ({ outcome } = await this.callWebhook(
        mapping.user_id,
        { ...config, url: config.url, timeout_seconds: budgetSeconds },
        payload,
        secrets,
        childTraceparent(trace),
      ));
    }

    // The result and the log entry both come from this one outcome, decided before either is made.
    const {
      outcome: final,
      templates,
      fallback_used,
    } = this.decide(outcome, assistant, strategy ? config.fallback_context : null, call);
    const errorClass = final.ok ? null : classifyFailure(final.kind, final.status_code);

    const log_id = await this.activityLog.record(
      lookupEntry(
        {
          user_id: mapping.user_id,
          status: final.ok ? 'success' : 'error',
          assistant_id: base.assistant_id,
          room_name: data.room_name,
          message: final.ok
            ? `Inbound context lookup succeeded: HTTP ${final.status_code}, ${Object.keys(final.context).length} context key(s)`
            : `Inbound context lookup failed (${final.kind}): ${final.message}${fallback_used ? '; rendered with the fallback context' : ''}`,
          latency_ms: final.latency_ms,
          error_class: errorClass,
          trace_id: trace.trace_id,
        },
        {
          assistant_version: chosen.version,
          variant: chosen.variant,
          strategy_id: strategyId,
          strategy_type: strategy?.strategy_type ?? 'webhook',
          url: config.url,
          headers: config.headers,
          timeout_seconds: config.timeout_seconds,
          payload,
        },
        final,
        fallback_used,
      ),
    );

    return {
      ...base,
      status: final.ok ? 'success' : 'error',
      context: final.ok ? final.context : fallback_used ? config.fallback_context : null,
      prompt: templates.prompt,
      start_instruction: templates.start_instruction,
      fallback_used,
      latency_ms: final.latency_ms,
      error: final.ok ? null : `${final.kind}: ${final.message}`,
      error_class: errorClass,
      log_id,
    };
  }

  /**
   * What a webhook outcome comes to once the prompt is rendered: the customer's context is used
   * only if the prompt and start instruction it renders fit in `MAX_RENDERED_PROMPT_BYTES`;
   * otherwise the lookup fails (`prompt_too_large`) and renders like any failure, with `fallback`
   * when there is one. A fallback that does not fit either is cut at the limit.
   */
  private decide(
    outcome: StrategyWebhookOutcome,
    assistant: RenderableAssistant | null,
    fallback: Record<string, unknown> | null,
    call: CallVariables,
  ): {
    outcome: StrategyWebhookOutcome;
    templates: RenderedAssistantTemplates;
    fallback_used: boolean;
  } {
    if (outcome.ok) {
      const templates = this.render(assistant, outcome.context, call);
      if (templates.exceeded.length === 0) return { outcome, templates, fallback_used: false };
      outcome = {
        ok: false,
        kind: 'prompt_too_large',
        message: `${this.tooLongMessage(templates, 'the context')}; the context was not used`,
        status_code: outcome.status_code,
        latency_ms: outcome.latency_ms,
      };
    }
    const templates = this.render(assistant, fallback, call);
    if (templates.exceeded.length > 0)
      outcome = {
        ...outcome,
        message: `${outcome.message}; ${this.tooLongMessage(templates, fallback ? 'the fallback context' : 'the call values')}, the text is cut there`,
      };
    return { outcome, templates, fallback_used: fallback !== null };
  }

  private render(
    assistant: RenderableAssistant | null,
    context: Record<string, unknown> | null,
    call: CallVariables,
  ): RenderedAssistantTemplates {
    return renderAssistantTemplates(assistant, { context, call }, this.maxPromptBytes);
  }

  private tooLongMessage(templates: RenderedAssistantTemplates, what: string): string {
    const verb = what === 'the call values' ? 'make' : 'makes';
    return `${what} ${verb} ${templates.exceeded.join(' and ')} longer than MAX_RENDERED_PROMPT_BYTES (${this.maxPromptBytes} bytes)`;
  }

  /**
   * `POST /inbound_context_strategy/test/:id`: the real webhook call with a sample payload
   * (`dry_run: true`), whether or not the strategy is active, and a prompt preview. No log entry.
   */
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
    let outcome: StrategyWebhookOutcome;
    let secretsUsed: string[] = [];
    if (!config.url) outcome = failure('missing_url', 'the strategy has no URL');
    else {
      const secrets = await this.webhookSecrets
        .signingSecretsFor(userId)
        .catch(() => [] as string[]);
      ({ outcome, secretsUsed } = await this.callWebhook(
        userId,
        { ...config, url: config.url },
        payload,
        secrets,
        childTraceparent(traceOf(undefined)),
      ));
    }
    // The same decision as a lookup's: a context whose prompt would not fit is not used.
    const {
      outcome: final,
      templates,
      fallback_used,
    } = this.decide(
      outcome,
      assistant,
      config.fallback_context,
      callVariables(call, sampleMapping),
    );
    const context = final.ok ? final.context : null;
    return {
      status: final.ok ? 'success' : 'error',
      error: final.ok ? null : `${final.kind}: ${final.message}`,
      error_class: final.ok ? null : classifyFailure(final.kind, final.status_code),
      status_code: final.ok ? final.status_code : (final.status_code ?? null),
      latency_ms: final.latency_ms,
      context_keys: context ? Object.keys(context).sort() : [],
      context,
      fallback_used,
      assistant_id: assistant?.assistant_id ?? null,
      prompt_preview: templates.prompt,
      start_instruction_preview: templates.start_instruction,
      secrets_used: secretsUsed,
      request: {
        url: redactUrl(config.url) ?? '',
        headers: redactHeaders(config.headers),
        payload,
      },
    };
  }

  /** The user's Standard Webhooks secrets; unsigned (and a warning) rather than no lookup if they cannot be read. */
  private signingSecrets(owner: UserRecord): Promise<string[]> {
    return this.webhookSecrets.signingSecretsOfUser(owner).catch((error: unknown) => {
      this.logger.warn(
        { err: loggableError(error), user_id: owner.user_id },
        'no signing secret; sending unsigned',
      );
      return [] as string[];
    });
  }

  /**
   * The strategy's webhook with its `{{secret.NAME}}` references resolved for this request (a
   * secret that no longer exists fails the lookup before anything is sent), bounded by
   * `MAX_CONTEXT_RESPONSE_BYTES`.
   */
  private async callWebhook(
    userId: string,
    config: StrategyConfig & { url: string },
    payload: Record<string, unknown>,
    signingSecrets: readonly string[],
    traceparent: string,
  ): Promise<{ outcome: StrategyWebhookOutcome; secretsUsed: string[] }> {
    const request = await this.secretRefs.resolveRequest(userId, {
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
      : failure('secret_not_found', `${request.error}; the webhook was not called`);
    return { outcome, secretsUsed: request.secrets_used };
  }
}

/** How a job names its mapping: the cache key of what it resolves to. */
function mappingKey(data: InboundContextLookupJobData): string {
  return data.inbound_id
    ? `id:${data.inbound_id}`
    : `number:${normalizePhoneNumber(data.inbound_number ?? '')}`;
}

/** The spec's webhook body. Keys may be added, never removed. */
export function buildPayload(
  data: Pick<InboundContextLookupJobData, 'room_name' | 'caller_number'>,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized' | 'assistant_id'>,
  assistant: Pick<AssistantRecord, 'assistant_id' | 'assistant_name'> | null,
  strategy: Pick<InboundContextStrategyEntity, 'strategy_name' | 'strategy_type'> | null,
  strategyId: string,
): Record<string, unknown> {
  return {
    assistant_id: assistant?.assistant_id ?? mapping.assistant_id ?? '',
    assistant_name: assistant?.assistant_name ?? '',
    room_name: data.room_name,
    strategy_id: strategyId,
    strategy_name: strategy?.strategy_name ?? '',
    strategy_type: strategy?.strategy_type ?? 'webhook',
    call_type: 'inbound',
    service: 'exotel',
    inbound_id: mapping.inbound_id,
    ...(data.caller_number !== undefined ? { caller_number: data.caller_number } : {}),
    inbound_number: mapping.phone_number_normalized,
  };
}

function failure(kind: InboundContextLookupErrorKind, message: string): Failure & { ok: false } {
  return { ok: false, kind, message, latency_ms: 0 };
}

/** What `{{call.*}}` renders: the same values the webhook payload carries. */
function callVariables(
  data: Pick<InboundContextLookupJobData, 'room_name' | 'caller_number'>,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized'>,
): CallVariables {
  return {
    caller_number: data.caller_number ?? null,
    inbound_number: mapping.phone_number_normalized,
    room_name: data.room_name,
    inbound_id: mapping.inbound_id,
    call_type: 'inbound',
  };
}

type RenderableAssistant = Pick<
  AssistantRecord,
  'assistant_prompt' | 'assistant_start_instruction'
>;

function errorResult(f: Failure): InboundContextLookupResult {
  return {
    status: 'error',
    assistant_id: null,
    assistant_name: null,
    assistant_version: null,
    variant: null,
    inbound_id: null,
    strategy_id: null,
    context: null,
    fallback_used: false,
    prompt: null,
    start_instruction: null,
    latency_ms: f.latency_ms,
    error: `${f.kind}: ${f.message}`,
    error_class: classifyFailure(f.kind),
    log_id: null,
  };
}
