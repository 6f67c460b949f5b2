import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { AttemptLedger, type OpenAttempt } from '../activity-log/attempt-ledger';
import { jobDigest, type JournalJob } from '../activity-log/attempt-journal';
import {
  outboundResponseData,
  type SentRequest,
  type ToolCallResponseData,
} from '../activity-log/log-entries';
import { AssistantRepository } from '../assistant/assistant.repository';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { classifyFailure, type FailureKind } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { statusCodeOf } from '../common/http/outbound-outcome';
import { capJson } from '../common/secrets/redaction';
import { childTraceparent, traceOf } from '../telemetry/trace-context';
import type { ToolCallJobData, ToolCallResult } from '../contracts/tool-call.contract';
import { CallVersions } from '../call-version/call-versions';
import { SecretReferences } from '../secret/secret-references';
import { CallToolResolver } from './call-tool';
import { validateToolArguments } from './tool-arguments';
import { CallCancellation } from './call-cancellation';
import type { Cancelled } from './call-cancels';
import { SingleFlight, type FlightNote, type SentCall } from './single-flight';
import { executionEntry, type EntryOutcome, type ExecutionContext } from './tool-call-context';
import {
  callContextHeaders,
  idempotencyHeaders,
  sideEffectIdentity,
  toolCallWebhookId,
} from './tool-call-request';
import {
  toolFailure,
  toolResult,
  TOOL_RESPONSE_MAX_BYTES,
  type ToolCallOutcome,
} from './tool-result';
import { DEFAULT_WEBHOOK_TIMEOUT_SECONDS } from './tool.constants';
import type { ToolFields } from './tool.types';

/** The entry an attempt is journaled with; `outcomeUnknown` rewrites it if it is ever written. */
const OUTCOME_PENDING: EntryOutcome = {
  status: 'error',
  message: 'sending',
  latency_ms: 0,
  error_class: 'internal',
};

/** Told in the entry of a call that sent after a first whose worker stopped without an answer. */
const FIRST_UNKNOWN_NOTE =
  ' (an identical call was sent before and its outcome is unknown: its worker stopped)';

type WebhookTool = Extract<ToolFields, { tool_execution_type: 'webhook' }>;
type StaticTool = Extract<ToolFields, { tool_execution_type: 'static_return' }>;

/**
 * Runs one tool call for the call stack: checks that the tool may be called by the assistant,
 * checks the arguments against the tool's parameters, then POSTs them to a webhook tool or returns
 * a static tool's value. Every execution the assistant's owner can see writes one `tool_call`
 * activity-log entry; failures are results (`status: "error"`), never exceptions, so the model can
 * react to them.
 */
@Injectable()
export class ToolCallService {
  private readonly logger = new Logger(ToolCallService.name);

  constructor(
    private readonly callTools: CallToolResolver,
    private readonly callVersions: CallVersions,
    private readonly assistants: AssistantRepository,
    private readonly attempts: AttemptLedger,
    private readonly http: OutboundHttpClient,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly secretRefs: SecretReferences,
    private readonly flight: SingleFlight,
    private readonly cancellation: CallCancellation,
  ) {}

  /**
   * Runs the tool as the call's version holds it (see `CallVersions`); the result says which.
   * `job` is the queue job being run: a webhook attempt is journaled under it before it is sent,
   * and the attempts of an earlier run of the same job that never got their entry are recorded
   * (see `AttemptLedger`): by the journaling, or, in a run that sends nothing, before it ends.
   */
  async execute(data: ToolCallJobData, job: JournalJob): Promise<ToolCallResult> {
    try {
      const cancelled = await this.cancellation.started(data);
      const { version } = await this.callVersions.of(data);
      return { ...(await this.run(data, version, job, cancelled)), assistant_version: version };
    } finally {
      // Reads the journal only when this run journaled nothing (no request sent).
      await this.attempts.recoverLost(job);
    }
  }

  private async run(
    data: ToolCallJobData,
    version: number | null,
    job: JournalJob,
    cancelled: Cancelled | null,
  ): Promise<ToolCallOutcome> {
    const startedAt = new Date();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);

    const assistant = await this.assistants.ownerOf(data.assistant_id);
    if (!assistant) {
      // Nobody to attribute an entry to: the service log is the only record.
      this.logger.warn(
        { assistant_id: data.assistant_id, tool_id: data.tool_id },
        'tool call for an unknown assistant',
      );
      return toolFailure(`Assistant ${data.assistant_id} not found.`, elapsed(), 'config');
    }
    const picked = await this.callTools.resolve(
      assistant.user_id,
      assistant.assistant_id,
      data.tool_id,
      version,
    );
    const ctx: ExecutionContext = {
      userId: assistant.user_id,
      data,
      tool: picked.tool,
      version,
      startedAt,
      trace: traceOf(data.traceparent),
      job,
    };
    if (cancelled) return this.cancellation.answer(ctx, data.arguments, cancelled, elapsed());
    if (!picked.ok) return this.refuse(ctx, picked.error, elapsed(), picked.kind);
    const tool = picked.tool;
    const check = validateToolArguments(tool.tool_parameters, data.arguments);
    if (!check.ok) {
      return this.refuse(ctx, check.error, elapsed(), 'invalid_arguments');
    }

    if (tool.tool_execution_type === 'static_return')
      return this.returnStatic(ctx, tool, check.arguments, elapsed());
    return this.callWebhook(ctx, tool, check.arguments);
  }

  private async returnStatic(
    ctx: ExecutionContext,
    tool: StaticTool,
    args: Record<string, unknown>,
    latency: number,
  ): Promise<ToolCallOutcome> {
    const value = tool.tool_execution_config.value;
    await this.record(
      ctx,
      args,
      {
        status: 'success',
        message: `Tool "${tool.tool_name}" returned its static value`,
        latency_ms: latency,
        error_class: null,
      },
      { status_code: null, body: capJson(value) },
    );
    return {
      status: 'success',
      result: value,
      latency_ms: latency,
      error: null,
      error_class: null,
    };
  }

  private async callWebhook(
    ctx: ExecutionContext,
    tool: WebhookTool,
    args: Record<string, unknown>,
  ): Promise<ToolCallOutcome> {
    const { url, headers, timeout } = tool.tool_execution_config;
    const timeoutSeconds = timeout > 0 ? timeout : DEFAULT_WEBHOOK_TIMEOUT_SECONDS;
    if (!url)
      return this.refuse(
        ctx,
        `Tool "${tool.tool_name}" has no webhook URL configured.`,
        0,
        'missing_url',
      );

    // {{secret.NAME}} resolved now, so a rotation reaches the next call; the log keeps the references.
    // The call's own values go in as they are, after the templates are resolved.
    const identity = sideEffectIdentity(tool, ctx.userId, ctx.data, args);
    const callHeaders = { ...callContextHeaders(ctx.data), ...idempotencyHeaders(identity) };
    const request = await this.secretRefs.resolveRequest(ctx.userId, { url, headers, callHeaders });
    if (!request.ok)
      return this.refuse(
        ctx,
        `Tool "${tool.tool_name}" was not called: ${request.error}.`,
        0,
        request.reason === 'blocked' ? 'blocked' : 'secret_not_found',
      );
    const timeoutMs = Math.round(timeoutSeconds * 1000);
    const target = { url: request.url, headers: request.headers, timeoutMs };
    if (tool.side_effect !== 'irreversible' || !identity)
      return (await this.send(ctx, tool, args, target)).outcome;
    return this.flight.run(ctx, tool, args, identity, timeoutMs, (note) =>
      this.send(ctx, tool, args, target, note),
    );
  }

  /**
   * Sends the request and records its entry. `note` is set for an `irreversible` tool's call: its
   * result and entry say it was not deduplicated.
   */
  private async send(
    ctx: ExecutionContext,
    tool: WebhookTool,
    args: Record<string, unknown>,
    target: { url: string; headers: Record<string, string>; timeoutMs: number },
    note?: FlightNote,
  ): Promise<SentCall> {
    const signingSecrets = await this.webhookSecrets.signingSecretsFor(ctx.userId);
    // Chosen here, not by the client, so the entry keeps it and a replay sends it again; derived
    // from the job without a tool_call_id, so a redelivered job sends it again too.
    const webhookId = toolCallWebhookId(ctx.data) ?? `msg_${jobDigest(ctx.job)}`;
    const sent = { webhook_id: webhookId, body: args };
    // Issued together: the cancel check leaves in the journal's write.
    const [open, cancelled] = await Promise.all([
      this.attempts.begin(
        ctx.job,
        executionEntry(ctx, args, OUTCOME_PENDING, { status_code: null, body: null }, sent),
      ),
      this.cancellation.sending(ctx, tool, webhookId),
    ]);
    if (cancelled) {
      const outcome = await this.cancellation.answer(ctx, args, cancelled, 0, open);
      return { outcome, logId: null, statusCode: null };
    }
    const outcome = await this.http.postJson({
      ...target,
      body: args,
      maxResponseBytes: TOOL_RESPONSE_MAX_BYTES,
      signingSecrets,
      webhookId,
      traceparent: childTraceparent(ctx.trace),
    });
    const result = toolResult(tool.tool_name, outcome, target.timeoutMs / 1000);
    const message =
      result.status === 'success'
        ? `Tool "${tool.tool_name}" answered HTTP ${statusCodeOf(outcome)}`
        : (result.error ?? '');
    const { status, error_class } = result;
    const told = `${message}${note?.firstUnknown ? FIRST_UNKNOWN_NOTE : ''}`;
    const ended = { status, message: told, latency_ms: outcome.latencyMs, error_class };
    const flown = note ? { deduplicated: false } : {};
    const response = { ...outboundResponseData(outcome), ...flown };
    const logId = await this.record(ctx, args, ended, response, sent, open);
    return {
      outcome: { ...result, ...flown },
      logId,
      statusCode: outcome.kind === 'response' ? outcome.status : null,
    };
  }

  /** A call stopped before anything was sent: logged with what the model asked for. */
  private async refuse(
    ctx: ExecutionContext,
    error: string,
    latencyMs: number,
    kind: FailureKind,
  ): Promise<ToolCallOutcome> {
    const errorClass = classifyFailure(kind);
    await this.record(
      ctx,
      ctx.data.arguments,
      { status: 'error', message: error, latency_ms: latencyMs, error_class: errorClass },
      { status_code: null, body: null },
    );
    return toolFailure(error, latencyMs, errorClass);
  }

  private async record(
    ctx: ExecutionContext,
    args: unknown,
    outcome: EntryOutcome,
    response: ToolCallResponseData,
    sent?: SentRequest,
    open: OpenAttempt | null = null,
  ): Promise<string | null> {
    return this.attempts.record(executionEntry(ctx, args, outcome, response, sent), open);
  }
}
