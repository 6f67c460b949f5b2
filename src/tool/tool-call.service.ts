import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { ActivityLogService } from '../activity-log/activity-log.service';
import {
  outboundResponseData,
  toolCallEntry,
  type LoggedTool,
  type SentRequest,
  type ToolCallResponseData,
} from '../activity-log/log-entries';
import { newWebhookId } from '../common/http/webhook-signature';
import { AssistantRepository } from '../assistant/assistant.repository';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { classifyFailure, type ErrorClass, type FailureKind } from '../contracts/error-class';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import {
  describeOutboundOutcome,
  statusCodeOf,
  type OutboundFailure,
} from '../common/http/outbound-outcome';
import type { OutboundHttpResponse, OutboundHttpResult } from '../common/http/outbound-http.types';
import { capJson, capText } from '../common/secrets/redaction';
import { childTraceparent, traceOf, type TraceContext } from '../common/http/trace-context';
import type { ToolCallJobData, ToolCallResult } from '../contracts/tool-call.contract';
import { CallVersions } from '../call-version/call-versions';
import { SecretReferences } from '../secret/secret-references';
import { CallToolResolver } from './call-tool';
import { validateToolArguments } from './tool-arguments';
import { DEFAULT_WEBHOOK_TIMEOUT_SECONDS } from './tool.constants';
import type { ToolFields } from './tool.types';

/** A tool result handed back to the model is cut at this many characters: it lands in its context. */
export const TOOL_RESULT_MAX_CHARS = 16_384;
/** A webhook answer larger than this is refused outright instead of being read. */
export const TOOL_RESPONSE_MAX_BYTES = 1024 * 1024;

interface ExecutionContext {
  userId: string;
  data: ToolCallJobData;
  tool: ToolFields | null;
  /** The version whose tool runs; null for the working copy. */
  version: number | null;
  startedAt: Date;
  trace: TraceContext;
}

/** A result before it is told which version ran. */
type ToolCallOutcome = Omit<ToolCallResult, 'assistant_version'>;

type WebhookTool = Extract<ToolFields, { tool_execution_type: 'webhook' }>;

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
    private readonly activityLog: ActivityLogService,
    private readonly http: OutboundHttpClient,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly secretRefs: SecretReferences,
  ) {}

  /** Runs the tool as the call's version holds it (see `CallVersions`); the result says which. */
  async execute(data: ToolCallJobData): Promise<ToolCallResult> {
    const { version } = await this.callVersions.of(data);
    return { ...(await this.run(data, version)), assistant_version: version };
  }

  private async run(data: ToolCallJobData, version: number | null): Promise<ToolCallOutcome> {
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
      return failure(`Assistant ${data.assistant_id} not found.`, elapsed(), 'config');
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
    };
    if (!picked.ok) return this.refuse(ctx, picked.error, elapsed(), picked.kind);
    const tool = picked.tool;
    const check = validateToolArguments(tool.tool_parameters, data.arguments);
    if (!check.ok) {
      return this.refuse(ctx, check.error, elapsed(), 'invalid_arguments');
    }

    if (tool.tool_execution_type === 'static_return') {
      const value = tool.tool_execution_config.value;
      const latency = elapsed();
      await this.record(
        ctx,
        check.arguments,
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
    return this.callWebhook(ctx, tool, check.arguments);
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
    const request = await this.secretRefs.resolveRequest(ctx.userId, { url, headers });
    if (!request.ok)
      return this.refuse(
        ctx,
        `Tool "${tool.tool_name}" was not called: ${request.error}.`,
        0,
        'secret_not_found',
      );
    const signingSecrets = await this.webhookSecrets.signingSecretsFor(ctx.userId);
    // Chosen here, not by the client, so the entry keeps it and a replay sends it again.
    const webhookId = toolCallWebhookId(ctx.data) ?? newWebhookId();
    const outcome = await this.http.postJson({
      url: request.url,
      headers: withCallContext(ctx.data, request.headers),
      body: args,
      timeoutMs: Math.round(timeoutSeconds * 1000),
      maxResponseBytes: TOOL_RESPONSE_MAX_BYTES,
      signingSecrets,
      webhookId,
      traceparent: childTraceparent(ctx.trace),
    });
    const result = toolResult(tool.tool_name, outcome, timeoutSeconds);
    await this.record(
      ctx,
      args,
      {
        status: result.status,
        message:
          result.status === 'success'
            ? `Tool "${tool.tool_name}" answered HTTP ${statusCodeOf(outcome)}`
            : (result.error ?? ''),
        latency_ms: outcome.latencyMs,
        error_class: result.error_class,
      },
      outboundResponseData(outcome),
      { webhook_id: webhookId, body: args },
    );
    return result;
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
    return failure(error, latencyMs, errorClass);
  }

  private async record(
    ctx: ExecutionContext,
    args: unknown,
    outcome: {
      status: 'success' | 'error';
      message: string;
      latency_ms: number;
      error_class: ErrorClass | null;
    },
    response: ToolCallResponseData,
    sent?: SentRequest,
  ): Promise<void> {
    const head = {
      ...outcome,
      trace_id: ctx.trace.trace_id,
      user_id: ctx.userId,
      assistant_id: ctx.data.assistant_id,
      room_name: ctx.data.room_name,
      timestamp: ctx.startedAt,
    };
    const call = {
      tool_id: ctx.data.tool_id,
      tool_call_id: ctx.data.tool_call_id ?? null,
      assistant_version: ctx.version,
      tool: ctx.tool && loggedTool(ctx.tool),
      arguments: args,
      sent,
    };
    await this.activityLog.record(toolCallEntry(head, call, response));
  }
}

export function loggedTool(tool: ToolFields): LoggedTool {
  const logged = { tool_name: tool.tool_name, execution_type: tool.tool_execution_type };
  if (tool.tool_execution_type !== 'webhook') return logged;
  const { url, headers } = tool.tool_execution_config;
  return { ...logged, webhook: { url, headers } };
}

const CALL_CONTEXT_HEADERS = ['x-call-room-name', 'x-call-assistant-id', 'x-call-tool-call-id'];

/**
 * The tool's headers plus the call the request belongs to: `X-Call-Room-Name`,
 * `X-Call-Assistant-Id` and, when given, `X-Call-Tool-Call-Id`. These replace tool headers of the
 * same name (any case). A value that is not printable ASCII is percent-encoded.
 */
export function withCallContext(
  data: ToolCallJobData,
  toolHeaders: Record<string, string>,
): Record<string, string> {
  const headers = Object.fromEntries(
    Object.entries(toolHeaders).filter(
      ([name]) => !CALL_CONTEXT_HEADERS.includes(name.toLowerCase()),
    ),
  );
  headers['X-Call-Room-Name'] = headerSafe(data.room_name);
  headers['X-Call-Assistant-Id'] = headerSafe(data.assistant_id);
  if (data.tool_call_id) headers['X-Call-Tool-Call-Id'] = headerSafe(data.tool_call_id);
  return headers;
}

const headerSafe = (value: string): string =>
  /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);

/**
 * With a `tool_call_id`, the `webhook-id` of the request is derived from (assistant, room,
 * tool_call_id): a repeated call of the same tool call reaches the receiver with the same id and
 * can be deduplicated. Without one, every request gets a fresh id.
 */
export function toolCallWebhookId(data: ToolCallJobData): string | undefined {
  if (!data.tool_call_id) return undefined;
  const seed = JSON.stringify(['tool-call', data.assistant_id, data.room_name, data.tool_call_id]);
  return `msg_${createHash('sha256').update(seed).digest('base64url').slice(0, 32)}`;
}

function failure(error: string, latencyMs: number, errorClass: ErrorClass): ToolCallOutcome {
  return { status: 'error', result: null, latency_ms: latencyMs, error, error_class: errorClass };
}

/**
 * The webhook's answer as the model gets it: JSON parsed (unless the server says it is plain text
 * or HTML), anything else as text; either cut at `TOOL_RESULT_MAX_CHARS`. An empty body is null.
 */
export function responseResult(response: OutboundHttpResponse): unknown {
  if (response.text === '') return null;
  const declaredText = response.contentType !== null && /^text\//i.test(response.contentType);
  if (response.json.ok && !declaredText && response.text.length <= TOOL_RESULT_MAX_CHARS)
    return response.json.value;
  return capText(response.text, TOOL_RESULT_MAX_CHARS);
}

export function toolResult(
  toolName: string,
  outcome: OutboundHttpResult,
  timeoutSeconds: number,
): ToolCallOutcome {
  const latency = outcome.latencyMs;
  const described = describeOutboundOutcome(outcome);
  const result = outcome.kind === 'response' ? responseResult(outcome) : null;
  if (described.ok)
    return { status: 'success', result, latency_ms: latency, error: null, error_class: null };
  return {
    status: 'error',
    result,
    latency_ms: latency,
    error: `Tool "${toolName}" failed: ${failureReason(described, timeoutSeconds)}.`,
    error_class: classifyFailure(described.kind, described.status_code),
  };
}

/** A failed webhook call in the words the model reads. */
function failureReason(failure: OutboundFailure, timeoutSeconds: number): string {
  switch (failure.kind) {
    case 'http_error':
      return `its webhook answered HTTP ${failure.status_code}`;
    case 'timeout':
      return `its webhook did not answer within ${timeoutSeconds} s`;
    case 'too_large':
      return `its webhook answered with more than ${TOOL_RESPONSE_MAX_BYTES} bytes`;
    case 'blocked':
      return 'its webhook URL points to an address that is not allowed';
    case 'network_error':
      return `its webhook could not be reached (${failure.message})`;
  }
}
