import {
  toolCallCancelContract,
  type ToolCallCancelResult,
} from '../../contracts/tool-call-cancel.contract';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { CallCancellation } from '../call-cancellation';

/**
 * Consumes `tool-call-cancel` jobs: `{room_name, tool_call_id, reason?}` → `{status}`. Data
 * without `room_name` or `tool_call_id` fails the job at once and for good, naming the field.
 */
@JobProcessor(QUEUES.TOOL_CALL_CANCEL)
export class ToolCallCancelProcessor implements JobHandler<unknown, ToolCallCancelResult> {
  constructor(private readonly cancellation: CallCancellation) {}

  async handle(job: QueueJob<unknown>): Promise<ToolCallCancelResult> {
    const { status } = await this.cancellation.cancel(jobData(toolCallCancelContract, job));
    return { status };
  }
}
