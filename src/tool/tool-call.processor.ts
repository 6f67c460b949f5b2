import { Process } from '@nestjs/bull';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import { ToolCallService, type ToolCallJobData, type ToolCallResult } from './tool-call.service';
import { MAX_WEBHOOK_TIMEOUT_SECONDS } from './tool.constants';

/** Tool calls wait on customer endpoints, not on this process: many run at once per worker. */
export const TOOL_CALL_CONCURRENCY = 50;

/**
 * Options the producer adds `tool-call` jobs with. One attempt: the model is waiting, and a
 * failure is an answer it can act on. The deadline covers the longest tool timeout plus margin.
 */
export const TOOL_CALL_JOB_OPTIONS = {
  attempts: 1,
  timeout: (MAX_WEBHOOK_TIMEOUT_SECONDS + 10) * 1000,
} as const;

/** Checks a job's data; returns the problem, or null when it is usable. */
export function toolCallDataProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return 'job data must be an object';
  const d = data as Record<string, unknown>;
  for (const key of ['tool_id', 'assistant_id', 'room_name'] as const) {
    const value = d[key];
    if (typeof value !== 'string' || value.trim() === '')
      return `${key} must be a non-empty string`;
    if (value.length > 255) return `${key} must be at most 255 characters`;
  }
  return null;
}

/** Consumes `tool-call` jobs: `{tool_id, assistant_id, room_name, arguments}` → `{status, result, latency_ms, error}`. */
@JobProcessor(QUEUES.TOOL_CALL)
export class ToolCallProcessor implements JobHandler<ToolCallJobData, ToolCallResult> {
  constructor(private readonly toolCalls: ToolCallService) {}

  @Process({ concurrency: TOOL_CALL_CONCURRENCY })
  async handle(job: QueueJob<ToolCallJobData>): Promise<ToolCallResult> {
    const problem = toolCallDataProblem(job.data);
    if (problem) {
      job.discard();
      throw new Error(`malformed tool-call job: ${problem}`);
    }
    return this.toolCalls.execute(job.data);
  }
}

/** Everything the tool-call job needs beyond the feature modules: add to the worker providers. */
export const TOOL_CALL_PROVIDERS = [ToolCallService, ToolCallProcessor];
