import { AttemptLedger } from '../../activity-log/attempt-ledger';
import { AssistantRepository } from '../../assistant/assistant.repository';
import {
  toolCallContract,
  type ToolCallJobData,
  type ToolCallResult,
} from '../../contracts/tool-call.contract';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { EXHAUSTED_MESSAGE, isLastAllowedRun } from '../../queue/job-runs';
import { OwnerGate } from '../../queue/owner-gate';
import { ToolCallService } from '../tool-call.service';

/**
 * Consumes `tool-call` jobs: `{tool_id, assistant_id, room_name, arguments}` → `{status, result,
 * latency_ms, error}`, at most `OWNER_MAX_IN_FLIGHT` of one owner at once (`OwnerGate`: the
 * assistant's owner). A job whose worker stopped too often (see `MAX_STALLED_RUNS`) records what
 * its earlier runs sent and completes as an error without sending again.
 */
@JobProcessor(QUEUES.TOOL_CALL)
export class ToolCallProcessor implements JobHandler<ToolCallJobData, ToolCallResult> {
  constructor(
    private readonly toolCalls: ToolCallService,
    private readonly ledger: AttemptLedger,
    private readonly gate: OwnerGate,
    private readonly assistants: AssistantRepository,
  ) {}

  async handle(job: QueueJob<ToolCallJobData>): Promise<ToolCallResult> {
    const { id, timestamp } = job;
    const data = jobData(toolCallContract, job);
    const journal = { queue: QUEUES.TOOL_CALL, id, timestamp };
    if (await isLastAllowedRun(job)) {
      await this.ledger.recoverLost(journal);
      return {
        status: 'error',
        result: null,
        latency_ms: 0,
        error: `The tool call failed: ${EXHAUSTED_MESSAGE}.`,
        error_class: 'internal',
        assistant_version: data.assistant_version ?? null,
      };
    }
    const owner = await this.gate.ownerOf(
      `assistant:${data.assistant_id}`,
      async () => (await this.assistants.ownerOf(data.assistant_id))?.user_id,
    );
    return this.gate.run(QUEUES.TOOL_CALL, owner, () => this.toolCalls.execute(data, journal));
  }
}
