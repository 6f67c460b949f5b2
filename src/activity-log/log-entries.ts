import type { ErrorClass } from '../contracts/error-class';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { redactHeaders } from '../common/secrets/masking';
import { bodyForLog, capJson, redactUrl } from '../common/secrets/redaction';
import type { LogStatus } from './activity-log.entity';
import type { ActivityLogInput } from './activity-log.service';

/*
 * What each `log_type` keeps in `request_data` and `response_data`, and the one builder per type
 * that writes it. URLs are redacted, header values masked and payloads capped here, so a job only
 * says what happened.
 */

/** The fields every entry has, whatever its type. */
export interface EntryHead {
  user_id: string;
  status: LogStatus;
  assistant_id: string | null;
  room_name: string;
  message: string;
  latency_ms: number;
  timestamp?: Date;
  /** Why it failed (error-class.ts); null on success. */
  error_class?: ErrorClass | null;
  /** W3C trace id of the job. */
  trace_id?: string | null;
}

/** What a webhook answered, or why it did not: the body parsed when it is JSON and fits, else capped text. */
export type OutboundResponseData = {
  status_code: number | null;
  body: unknown;
  /** The failure kind of the HTTP client (`timeout`, `network`, ...) when nothing was answered. */
  error?: string;
};

/** `response_data` of an outbound call's outcome. */
export function outboundResponseData(outcome: OutboundHttpResult): OutboundResponseData {
  return outcome.kind === 'response'
    ? { status_code: outcome.status, body: bodyForLog(outcome.text, outcome.json) }
    : { status_code: null, body: null, error: outcome.kind };
}

export type ToolCallRequestData = {
  tool_id: string;
  tool_call_id: string | null;
  /** The published version whose tool definition ran; null for the working copy. */
  assistant_version: number | null;
  /** Null when the tool is missing or another user's: its name never reaches the log. */
  tool_name: string | null;
  execution_type: string | null;
  /** Webhook tools only (null otherwise), credentials masked. */
  url: string | null;
  /** Webhook tools only, sensitive values masked. */
  headers?: Record<string, string>;
  /** Standard Webhooks `webhook-id` of the request, when one was sent (a replay sends it again). */
  webhook_id?: string;
  arguments: unknown;
};

/** A request that was sent: its `webhook-id` and the whole body, kept for a replay. */
export interface SentRequest {
  webhook_id: string;
  body: unknown;
}

/**
 * `response_data` of a tool call. An `irreversible` tool's also says whether its result is that of
 * an identical call (`deduplicated`, and that call's entry: `first_log_id`).
 */
export type ToolCallResponseData = OutboundResponseData & {
  deduplicated?: boolean;
  first_log_id?: string | null;
};

/** The tool as far as the entry may tell: nothing of another user's tool. */
export interface LoggedTool {
  tool_name: string;
  execution_type: string;
  /** Set for webhook tools. */
  webhook?: { url: string | null; headers: Record<string, string> };
}

export function toolCallEntry(
  head: EntryHead,
  call: {
    tool_id: string;
    tool_call_id: string | null;
    assistant_version: number | null;
    tool: LoggedTool | null;
    arguments: unknown;
    /** Set when the webhook was called. */
    sent?: SentRequest;
  },
  response: ToolCallResponseData,
): ActivityLogInput {
  const webhook = call.tool?.webhook;
  const request_data: ToolCallRequestData = {
    tool_id: call.tool_id,
    tool_call_id: call.tool_call_id,
    assistant_version: call.assistant_version,
    tool_name: call.tool?.tool_name ?? null,
    execution_type: call.tool?.execution_type ?? null,
    url: webhook ? redactUrl(webhook.url) : null,
    ...(webhook ? { headers: redactHeaders(webhook.headers) } : {}),
    ...(call.sent ? { webhook_id: call.sent.webhook_id } : {}),
    arguments: capJson(call.arguments ?? null),
  };
  return {
    ...head,
    log_type: 'tool_call',
    request_data,
    response_data: response,
    request_body: call.sent ? JSON.stringify(call.sent.body) : null,
  };
}

export type EndCallRequestData = {
  url: string | null;
  /** The published version whose end-call URL was used; null for the working copy. */
  assistant_version: number | null;
  attempt: number;
  max_attempts: number;
  /** Standard Webhooks `webhook-id`, the same on every attempt of one delivery. */
  webhook_id: string;
  payload: unknown;
};

export type EndCallResponseData = OutboundResponseData & { will_retry: boolean };

export function endCallEntry(
  head: EntryHead,
  delivery: {
    url: string;
    assistant_version: number | null;
    attempt: number;
    max_attempts: number;
    webhook_id: string;
    payload: unknown;
  },
  outcome: OutboundHttpResult,
  willRetry: boolean,
): ActivityLogInput {
  const request_data: EndCallRequestData = {
    url: redactUrl(delivery.url),
    assistant_version: delivery.assistant_version,
    attempt: delivery.attempt,
    max_attempts: delivery.max_attempts,
    webhook_id: delivery.webhook_id,
    payload: capJson(delivery.payload ?? null),
  };
  const response_data: EndCallResponseData = {
    ...outboundResponseData(outcome),
    will_retry: willRetry,
  };
  return {
    ...head,
    log_type: 'end_call_webhook',
    request_data,
    response_data,
    request_body: JSON.stringify(delivery.payload ?? null),
  };
}

/** The lookup's request as made; `lookupEntry` redacts its URL and headers. */
export type LookupRequestData = {
  assistant_version: number | null;
  /** Index into the mapping's `assistant_variants`; null without a split. */
  variant: number | null;
  strategy_id: string;
  strategy_type: string;
  url: string | null;
  headers: Record<string, string>;
  timeout_seconds: number;
  payload: Record<string, unknown>;
  /** The request's `webhook-id` when a lookup job sent it (the same on a redelivery). */
  webhook_id?: string;
  /** With a guarded split: the mapping whose guardrail counts this call. */
  inbound_id?: string;
  guardrail?: true;
};

export type LookupResponseData =
  | { status_code: number; context_keys: string[]; context_size: number; fallback_used: boolean }
  | { error: string; message: string; status_code?: number; fallback_used: boolean };

/** How a lookup's webhook call ended, as the entry tells it. */
export type LookupOutcome =
  | { ok: true; status_code: number; context: Record<string, unknown> }
  | { ok: false; kind: string; message: string; status_code?: number };

export function lookupEntry(
  head: EntryHead,
  request: LookupRequestData,
  outcome: LookupOutcome,
  fallbackUsed: boolean,
): ActivityLogInput {
  const request_data: LookupRequestData = {
    ...request,
    url: redactUrl(request.url),
    headers: redactHeaders(request.headers),
  };
  const response_data: LookupResponseData = outcome.ok
    ? {
        status_code: outcome.status_code,
        context_keys: Object.keys(outcome.context).sort(),
        context_size: Object.keys(outcome.context).length,
        fallback_used: fallbackUsed,
      }
    : {
        error: outcome.kind,
        message: outcome.message,
        ...(outcome.status_code !== undefined ? { status_code: outcome.status_code } : {}),
        fallback_used: fallbackUsed,
      };
  return { ...head, log_type: 'inbound_context_lookup', request_data, response_data };
}
