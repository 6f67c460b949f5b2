import { Logger } from '@nestjs/common';
import {
  toolCallCancelContract,
  type ToolCallCancelResult,
} from '../../contracts/tool-call-cancel.contract';
import { QUEUES } from '../../contracts/queues';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { CallCancellation } from '../call-cancellation';

/**
 * Consumes `tool-call-cancel` jobs: `{room_name, tool_call_id, reason?}` → `{status}`. Data
 * without `room_name` or `tool_call_id` (or otherwise off the contract) cancels nothing and
 * completes `{status: "error", error}` naming the field: the producer waiting for its answer gets
 * one, and nothing is left failed or retried.
 */
@JobProcessor(QUEUES.TOOL_CALL_CANCEL)
export class ToolCallCancelProcessor implements JobHandler<unknown, ToolCallCancelResult> {
  private readonly logger = new Logger(ToolCallCancelProcessor.name);

  constructor(private readonly cancellation: CallCancellation) {}

  async handle(job: QueueJob<unknown>): Promise<ToolCallCancelResult> {
    const parsed = toolCallCancelContract.parse(job.data);
    if (!parsed.ok) {
      const error = `malformed ${QUEUES.TOOL_CALL_CANCEL} job: ${parsed.error}`;
      this.logger.warn({ job_id: job.id, error }, 'tool call cancel job cancels nothing');
      return { status: 'error', error };
    }
    const { status } = await this.cancellation.cancel(parsed.data);
    return { status };
  }
}
