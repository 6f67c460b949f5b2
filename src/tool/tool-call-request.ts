import { createHash } from 'node:crypto';
import type { ToolCallJobData } from '../contracts/tool-call.contract';
import type { LoggedTool } from '../activity-log/log-entries';
import { callIdentity } from './call-identity';
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

/**
 * The call a tool request belongs to, as headers: `X-Call-Room-Name`, `X-Call-Assistant-Id` and,
 * when given, `X-Call-Tool-Call-Id`. They are the call's values, never templates (a
 * `{{secret.X}}` in them is sent as text), and replace tool headers of the same name (any case:
 * `resolveTemplate`). A value that is not printable ASCII is percent-encoded.
 */
export function callContextHeaders(
  data: Pick<ToolCallJobData, 'room_name' | 'assistant_id' | 'tool_call_id'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Call-Room-Name': headerSafe(data.room_name),
    'X-Call-Assistant-Id': headerSafe(data.assistant_id),
  };
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

/**
 * The identity of a call of a tool with a side effect (see `callIdentity`), or null for a `none`
 * tool: `owner` is the tool's owner, `args` the arguments as sent.
 */
export function sideEffectIdentity(
  tool: ToolFields,
  owner: string,
  call: { room_name: string; tool_id: string },
  args: unknown,
): string | null {
  if (tool.side_effect === 'none') return null;
  return callIdentity({
    userId: owner,
    roomName: call.room_name,
    toolId: call.tool_id,
    dedupeKey: tool.dedupe_key,
    arguments: args !== null && typeof args === 'object' ? (args as Record<string, unknown>) : {},
  });
}

/**
 * `Idempotency-Key: <identity>` for a call with a side effect: the same on every request of one
 * identity (duplicates, retries, replays), so the receiver can recognise a repeat. None otherwise.
 */
export function idempotencyHeaders(identity: string | null): Record<string, string> {
  return identity ? { 'Idempotency-Key': identity } : {};
}
