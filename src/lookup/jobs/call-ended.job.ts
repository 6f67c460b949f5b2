import { callEndedContract, type CallEndedResult } from '../../contracts/call-ended.contract';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { CallSlotReleases } from '../call-slot-releases';

/** Consumes `call-ended` jobs: the room's concurrency slot is free again. */
@JobProcessor(QUEUES.CALL_ENDED)
export class CallEndedProcessor implements JobHandler<unknown, CallEndedResult> {
  constructor(private readonly releases: CallSlotReleases) {}

  async handle(job: QueueJob<unknown>): Promise<CallEndedResult> {
    const { room_name, inbound_number } = jobData(callEndedContract, job);
    return { released: await this.releases.release(room_name, inbound_number) };
  }
}
