import { Injectable, Logger, Optional } from '@nestjs/common';
import { AttemptLedger, type OpenAttempt } from '../activity-log/attempt-ledger';
import { outboundResponseData } from '../activity-log/log-entries';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { loggableError } from '../common/errors/loggable-error';
import { classifyFailure } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { describeOutboundOutcome, statusCodeOf } from '../common/http/outbound-outcome';
import { traceOf } from '../telemetry/trace-context';
import type { ToolCallCancelJobData } from '../contracts/tool-call-cancel.contract';
import type { ToolCallJobData } from '../contracts/tool-call.contract';
import { MetricsService } from '../metrics/metrics.service';
import { SecretReferences } from '../secret/secret-references';
import { CallCancels, type CancelNotice, type CancelOutcome, type Cancelled } from './call-cancels';
import { CallToolResolver } from './call-tool';
import { executionEntry, type ExecutionContext } from './tool-call-context';
import { callContextHeaders } from './tool-call-request';
import type { ToolCallOutcome } from './tool-result';
import { DEFAULT_WEBHOOK_TIMEOUT_SECONDS } from './tool.constants';
import type { ToolFields } from './tool.types';

/** The `stage` label of `tool_calls_cancelled_total` for each answer of a cancel job. */
const CANCEL_STAGES = {
  cancelled_before_send: 'before_send',
  cancelled_after_send: 'after_send',
  not_found: 'not_found',
} as const;

/**
 * Cancels of tool calls (`tool-call-cancel`), both halves: the call's job asks whether it was
 * cancelled when it starts and when it sends (`CallCancels`, riding on round trips the job makes
 * anyway), and answers `cancelled` without a request; the cancel job marks the call and, when it
 * had been sent to a tool with `notify_cancel`, tells the tool once with a signed POST.
 */
@Injectable()
export class CallCancellation {
  private readonly logger = new Logger(CallCancellation.name);

  constructor(
    private readonly cancels: CallCancels,
    private readonly callTools: CallToolResolver,
    private readonly secretRefs: SecretReferences,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly http: OutboundHttpClient,
    private readonly attempts: AttemptLedger,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  /** A cancel that came before this call's job; marks the call started. Null without a tool_call_id. */
  async started(data: ToolCallJobData): Promise<Cancelled | null> {
    const { tool_call_id } = data;
    if (!tool_call_id) return null;
    return this.guarded(() => this.cancels.started({ room_name: data.room_name, tool_call_id }));
  }

  /** A cancel of this call so far, read only; null without a tool_call_id. */
  async check(data: ToolCallJobData): Promise<Cancelled | null> {
    const { tool_call_id, room_name } = data;
    if (!tool_call_id) return null;
    return this.guarded(() => this.cancels.check({ room_name, tool_call_id }));
  }

  /** A cancel that came before the send; else marks the call sent, with what a notice needs. */
  async sending(
    ctx: ExecutionContext,
    tool: ToolFields,
    webhookId: string,
  ): Promise<Cancelled | null> {
    const { tool_call_id, room_name, assistant_id, tool_id } = ctx.data;
    if (!tool_call_id) return null;
    const notice: CancelNotice | null = tool.notify_cancel
      ? {
          user_id: ctx.userId,
          assistant_id,
          tool_id,
          assistant_version: ctx.version,
          webhook_id: webhookId,
        }
      : null;
    const keepMs = tool.dedupe_window_seconds * 1000;
    return this.guarded(() => this.cancels.sending({ room_name, tool_call_id }, notice, keepMs));
  }

  /** The call's answer once cancelled: nothing sent; its entry an error of class `cancelled`. */
  async answer(
    ctx: ExecutionContext,
    args: unknown,
    cancelled: Cancelled,
    latencyMs: number,
    open: OpenAttempt | null = null,
  ): Promise<ToolCallOutcome> {
    const name = ctx.tool ? `Tool "${ctx.tool.tool_name}"` : 'The tool';
    const because = cancelled.reason ? ` (${cancelled.reason})` : '';
    const error = `${name} was not called: the call was cancelled${because}.`;
    const ended = {
      status: 'error' as const,
      message: error,
      latency_ms: latencyMs,
      error_class: 'cancelled' as const,
    };
    await this.attempts.record(
      executionEntry(ctx, args, ended, { status_code: null, body: null }),
      open,
    );
    return {
      status: 'cancelled',
      result: null,
      latency_ms: latencyMs,
      error,
      error_class: 'cancelled',
    };
  }

  /** Runs a `tool-call-cancel` job. */
  async cancel(data: ToolCallCancelJobData): Promise<CancelOutcome> {
    const call = { room_name: data.room_name, tool_call_id: data.tool_call_id };
    const outcome = await this.cancels.cancel(call, data.reason ?? null);
    this.metrics?.countToolCallCancelled(CANCEL_STAGES[outcome.status]);
    if (outcome.notice) await this.notify(data, outcome.notice);
    return outcome;
  }

  /**
   * `{type: "tool_call.cancelled", room_name, tool_call_id, reason}` to the tool's URL, signed
   * with `webhook-id: <the call's webhook-id>-cancel`, logged as a `tool_call` entry.
   */
  private async notify(data: ToolCallCancelJobData, notice: CancelNotice): Promise<void> {
    const resolved = await this.callTools.resolve(
      notice.user_id,
      notice.assistant_id,
      notice.tool_id,
      notice.assistant_version,
    );
    const tool = resolved.tool;
    if (!resolved.ok || !tool || tool.tool_execution_type !== 'webhook') return;
    const { url, headers, timeout } = tool.tool_execution_config;
    const call = { ...data, assistant_id: notice.assistant_id };
    const request = await this.secretRefs.resolveRequest(notice.user_id, {
      url,
      headers,
      callHeaders: callContextHeaders(call),
    });
    if (!request.ok) return;
    const body = {
      type: 'tool_call.cancelled',
      room_name: data.room_name,
      tool_call_id: data.tool_call_id,
      reason: data.reason ?? null,
    };
    const webhookId = `${notice.webhook_id}-cancel`;
    const outcome = await this.http.postJson({
      url: request.url,
      headers: request.headers,
      body,
      timeoutMs: Math.round((timeout > 0 ? timeout : DEFAULT_WEBHOOK_TIMEOUT_SECONDS) * 1000),
      maxResponseBytes: 64 * 1024,
      signingSecrets: await this.webhookSecrets.signingSecretsFor(notice.user_id),
      webhookId,
    });
    await this.recordNotice(notice, call, tool, body, webhookId, outcome);
  }

  private async recordNotice(
    notice: CancelNotice,
    call: ToolCallCancelJobData & { assistant_id: string },
    tool: ToolFields,
    body: Record<string, unknown>,
    webhookId: string,
    outcome: OutboundHttpResult,
  ): Promise<void> {
    const described = describeOutboundOutcome(outcome);
    const ctx: ExecutionContext = {
      userId: notice.user_id,
      data: { ...call, tool_id: notice.tool_id },
      tool,
      version: notice.assistant_version,
      startedAt: new Date(),
      trace: traceOf(undefined),
      job: { queue: 'tool-call-cancel', id: webhookId, timestamp: 0 },
    };
    const told = `Tool "${tool.tool_name}" told of the cancellation: `;
    const message = described.ok
      ? `${told}HTTP ${statusCodeOf(outcome)}`
      : `${told}failed (${described.kind})`;
    await this.attempts.record(
      executionEntry(
        ctx,
        body,
        {
          status: described.ok ? 'success' : 'error',
          message,
          latency_ms: outcome.latencyMs,
          error_class: described.ok ? null : classifyFailure(described.kind, described.status_code),
        },
        outboundResponseData(outcome),
        { webhook_id: webhookId, body },
      ),
      null,
    );
  }

  /** Cancels are best effort while Redis is unreachable: the call goes on as if none came. */
  private async guarded(read: () => Promise<Cancelled | null>): Promise<Cancelled | null> {
    try {
      return await read();
    } catch (error) {
      this.logger.warn({ err: loggableError(error) }, 'tool call cancel record not read');
      return null;
    }
  }
}
