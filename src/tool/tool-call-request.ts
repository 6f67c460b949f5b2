import { createHash } from 'node:crypto';
import type { ToolCallJobData } from '../contracts/tool-call.contract';
import type { LoggedTool } from '../activity-log/log-entries';
import type { ToolFields } from './tool.types';

/*
 * What a tool call sends besides its arguments, shared by the job and the replay: the call's
 * context headers and the `webhook-id`; and what its log entry tells of the tool.
 */

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
