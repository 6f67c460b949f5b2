import { Injectable } from '@nestjs/common';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../activity-log/activity-log.service';
import type { LogEntryDto } from '../activity-log/dto/log-entry.dto';
import { endCallEntry, outboundResponseData, toolCallEntry } from '../activity-log/log-entries';
import { AssistantRepository } from '../assistant/assistant.repository';
import {
  END_CALL_RESPONSE_MAX_BYTES,
  END_CALL_TIMEOUT_MS,
  deliveryErrorClass,
  failureReason as deliveryFailureReason,
} from '../assistant/end-call-webhook.service';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { AppException } from '../common/errors/app.exception';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { describeOutboundOutcome, statusCodeOf } from '../common/http/outbound-outcome';
import { childTraceparent, traceOf } from '../telemetry/trace-context';
import { EventDelivery } from '../event-subscription/event-delivery.service';
import { SecretReferences } from '../secret/secret-references';
import {
  callContextHeaders,
  idempotencyHeaders,
  loggedTool,
  sideEffectIdentity,
} from '../tool/tool-call-request';
import { TOOL_RESPONSE_MAX_BYTES, toolResult } from '../tool/tool-result';
import { DEFAULT_WEBHOOK_TIMEOUT_SECONDS } from '../tool/tool.constants';
import { ToolRepository } from '../tool/tool.repository';
import { applyToolDefaults } from '../tool/utils/apply-tool-defaults.util';
import { replaySource, type ReplaySource } from './replay-request';

/** The request a replay sends, built from the resource as it is now. */
interface Prepared {
  url: string;
  headers: Record<string, string>;
  /** The call's own headers, sent as they are (never templates). */
  callHeaders?: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The new entry, once the outcome is known. */
  entry(outcome: OutboundHttpResult, head: Head): ActivityLogInput;
}

type Head = Pick<
  ActivityLogInput,
  'user_id' | 'assistant_id' | 'room_name' | 'timestamp' | 'trace_id'
>;

/**
 * `POST /logs/replay/:log_id`: one attempt, now, of a request an entry recorded: an end-call
 * delivery, a webhook tool call or an event delivery (sent by `EventDelivery.replay`, signed with
 * the subscription's secret). It goes to the current URL with the current headers ({{secret}}
 * references resolved now, the address checked as on every request), with the original body and
 * `webhook-id` and a fresh timestamp and signature, so a receiver that deduplicates on `webhook-id`
 * sees the same message. The attempt is recorded as a new entry whose `replay_of` names the original.
 */
@Injectable()
export class ReplayService {
  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly tools: ToolRepository,
    private readonly assistants: AssistantRepository,
    private readonly secretRefs: SecretReferences,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly http: OutboundHttpClient,
    private readonly events: EventDelivery,
  ) {}

  async replay(userId: string, logId: string): Promise<LogEntryDto> {
    const entry = await this.activityLog.findSentRequest(userId, logId);
    if (!entry) throw AppException.notFound('Log entry');
    const source = replaySource(entry);
    const payload: unknown = JSON.parse(source.body);
    if (entry.log_type === 'event_delivery')
      return this.written(userId, logId, await this.events.replay(userId, entry, payload));
    const prepared =
      entry.log_type === 'tool_call'
        ? await this.toolCall(userId, source, payload)
        : await this.endCall(userId, source, payload);
    const resolved = await this.secretRefs.resolveRequest(userId, prepared);
    // A secret not allowed for the URL's origin is recorded as blocked, like an address refused.
    if (!resolved.ok && resolved.reason !== 'blocked')
      throw AppException.conflict(`Not sent: ${resolved.error}`);
    // The replay request's trace: a child of its server span (which continues a caller's
    // `traceparent`), never a span the original trace does not have; `replay_of` links the entries.
    const trace = traceOf(undefined);
    const startedAt = new Date();
    const outcome: OutboundHttpResult = resolved.ok
      ? await this.http.postJson({
          url: resolved.url,
          headers: resolved.headers,
          body: payload,
          timeoutMs: prepared.timeoutMs,
          maxResponseBytes: prepared.maxResponseBytes,
          signingSecrets: await this.webhookSecrets.signingSecretsFor(userId),
          webhookId: source.webhookId,
          traceparent: childTraceparent(trace),
        })
      : { kind: 'blocked', message: `not sent: ${resolved.error}`, latencyMs: 0 };
    const head: Head = {
      user_id: userId,
      assistant_id: entry.assistant_id,
      room_name: entry.room_name,
      timestamp: startedAt,
      trace_id: trace.trace_id,
    };
    const logId2 = await this.activityLog.record({
      ...prepared.entry(outcome, head),
      replay_of: entry.log_id,
    });
    return this.written(userId, logId, logId2);
  }

  private async written(userId: string, logId: string, newId: string | null): Promise<LogEntryDto> {
    const written = newId && (await this.activityLog.findOwned(userId, newId));
    if (!written)
      throw new Error(`the replay of entry ${logId} was sent but its entry was not written`);
    return written;
  }

  /** The tool as it is now: its URL, headers and timeout; the call's context headers as before. */
  private async toolCall(
    userId: string,
    source: ReplaySource,
    payload: unknown,
  ): Promise<Prepared> {
    const data = source.entry.request_data;
    const toolId = String(data.tool_id);
    const found = await this.tools.findById(toolId);
    const tool = found && found.user_id === userId ? applyToolDefaults(found) : null;
    if (!tool)
      throw AppException.conflict(`Tool ${toolId} no longer exists: there is nothing to send to`);
    if (tool.tool_execution_type !== 'webhook' || !tool.tool_execution_config.url)
      throw AppException.conflict(`Tool "${tool.tool_name}" no longer has a webhook URL`);
    const { url, headers, timeout } = tool.tool_execution_config;
    const timeoutSeconds = timeout > 0 ? timeout : DEFAULT_WEBHOOK_TIMEOUT_SECONDS;
    const toolCallId = typeof data.tool_call_id === 'string' ? data.tool_call_id : null;
    const call = {
      assistant_id: source.entry.assistant_id ?? '',
      room_name: source.entry.room_name,
      ...(toolCallId ? { tool_call_id: toolCallId } : {}),
    };
    return {
      url,
      headers,
      // A tool with a side effect: the call's Idempotency-Key (from its arguments as sent).
      callHeaders: {
        ...callContextHeaders(call),
        ...idempotencyHeaders(
          sideEffectIdentity(tool, userId, { ...call, tool_id: toolId }, payload),
        ),
      },
      timeoutMs: Math.round(timeoutSeconds * 1000),
      maxResponseBytes: TOOL_RESPONSE_MAX_BYTES,
      entry: (outcome, head) => {
        const result = toolResult(tool.tool_name, outcome, timeoutSeconds);
        const message =
          result.status === 'success'
            ? `Tool "${tool.tool_name}" answered HTTP ${statusCodeOf(outcome)}`
            : (result.error ?? '');
        return toolCallEntry(
          {
            ...head,
            status: result.status,
            message: `Replay of entry ${source.entry.log_id}: ${message}`,
            latency_ms: outcome.latencyMs,
            error_class: result.error_class,
          },
          {
            tool_id: toolId,
            tool_call_id: toolCallId,
            assistant_version: null,
            tool: loggedTool(tool),
            arguments: payload,
            sent: { webhook_id: source.webhookId, body: payload },
          },
          outboundResponseData(outcome),
        );
      },
    };
  }

  /** The assistant's end-call URL as it is now. */
  private async endCall(userId: string, source: ReplaySource, payload: unknown): Promise<Prepared> {
    const assistantId = source.entry.assistant_id;
    const assistant = assistantId && (await this.assistants.findOwnedLean(userId, assistantId));
    const url = assistant ? assistant.assistant_end_call_url : null;
    if (!url)
      throw AppException.conflict(
        assistant
          ? 'The assistant no longer has an end-call URL: there is nothing to send to'
          : `Assistant ${assistantId ?? ''} no longer exists: there is nothing to send to`,
      );
    return {
      url,
      headers: {},
      timeoutMs: END_CALL_TIMEOUT_MS,
      maxResponseBytes: END_CALL_RESPONSE_MAX_BYTES,
      entry: (outcome, head) => {
        const described = describeOutboundOutcome(outcome);
        const what = `Replay of entry ${source.entry.log_id}: end-call webhook`;
        return endCallEntry(
          {
            ...head,
            status: described.ok ? 'success' : 'error',
            message: described.ok
              ? `${what} delivered (HTTP ${described.status_code})`
              : `${what} failed: ${deliveryFailureReason(outcome)}`,
            latency_ms: outcome.latencyMs,
            error_class: deliveryErrorClass(outcome),
          },
          {
            url,
            assistant_version: null,
            attempt: 1,
            max_attempts: 1,
            webhook_id: source.webhookId,
            payload,
          },
          outcome,
          false,
        );
      },
    };
  }
}
