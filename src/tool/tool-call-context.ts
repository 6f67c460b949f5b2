import type { ActivityLogInput } from '../activity-log/activity-log.service';
import type { JournalJob } from '../activity-log/attempt-journal';
import {
  toolCallEntry,
  type SentRequest,
  type ToolCallResponseData,
} from '../activity-log/log-entries';
import type { TraceContext } from '../telemetry/trace-context';
import type { ErrorClass } from '../contracts/error-class';
import type { ToolCallJobData } from '../contracts/tool-call.contract';
import { loggedTool } from './tool-call-request';
import type { ToolFields } from './tool.types';

/** One run of a `tool-call` job, as its steps and its entry see it. */
export interface ExecutionContext {
  userId: string;
  data: ToolCallJobData;
  tool: ToolFields | null;
  /** The version whose tool runs; null for the working copy. */
  version: number | null;
  startedAt: Date;
  trace: TraceContext;
  job: JournalJob;
}

/** How an execution ended, as its entry tells it. */
export interface EntryOutcome {
  status: 'success' | 'error';
  message: string;
  latency_ms: number;
  error_class: ErrorClass | null;
}

/** The `tool_call` entry of one execution. */
export function executionEntry(
  ctx: ExecutionContext,
  args: unknown,
  outcome: EntryOutcome,
  response: ToolCallResponseData,
  sent?: SentRequest,
): ActivityLogInput {
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
  return toolCallEntry(head, call, response);
}
