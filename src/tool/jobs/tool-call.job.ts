import {
  toolCallContract,
  type ToolCallJobData,
  type ToolCallResult,
} from '../../contracts/tool-call.contract';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { ToolCallService } from '../tool-call.service';

/** Consumes `tool-call` jobs: `{tool_id, assistant_id, room_name, arguments}` → `{status, result, latency_ms, error}`. */
@JobProcessor(QUEUES.TOOL_CALL)
export class ToolCallProcessor implements JobHandler<ToolCallJobData, ToolCallResult> {
  constructor(private readonly toolCalls: ToolCallService) {}

  async handle(job: QueueJob<ToolCallJobData>): Promise<ToolCallResult> {
    const { id, timestamp } = job;
    return this.toolCalls.execute(jobData(toolCallContract, job), {
      queue: QUEUES.TOOL_CALL,
      id,
      timestamp,
    });
  }
}
