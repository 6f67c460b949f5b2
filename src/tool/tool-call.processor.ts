import { Process } from '@nestjs/bull';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import {
  toolCallContract,
  type ToolCallJobData,
  type ToolCallResult,
} from '../contracts/tool-call.contract';
import { ToolCallService } from './tool-call.service';

/** Tool calls wait on customer endpoints, not on this process: many run at once per worker. */
export const TOOL_CALL_CONCURRENCY = 50;

export { TOOL_CALL_JOB_OPTIONS } from '../contracts/tool-call.contract';

/** Consumes `tool-call` jobs: `{tool_id, assistant_id, room_name, arguments}` → `{status, result, latency_ms, error}`. */
@JobProcessor(QUEUES.TOOL_CALL)
export class ToolCallProcessor implements JobHandler<ToolCallJobData, ToolCallResult> {
  constructor(private readonly toolCalls: ToolCallService) {}

  @Process({ concurrency: TOOL_CALL_CONCURRENCY })
  async handle(job: QueueJob<ToolCallJobData>): Promise<ToolCallResult> {
    const parsed = toolCallContract.parse(job.data);
    if (!parsed.ok) {
      job.discard();
      throw new Error(`malformed tool-call job: ${parsed.error}`);
    }
    return this.toolCalls.execute(parsed.data);
  }
}

/** Everything the tool-call job needs beyond the feature modules: add to the worker providers. */
export const TOOL_CALL_PROVIDERS = [ToolCallService, ToolCallProcessor];
