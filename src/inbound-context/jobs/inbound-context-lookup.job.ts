import {
  inboundContextLookupContract,
  type InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { InboundContextLookupService } from '../inbound-context-lookup.service';

/** Consumes `inbound-context-lookup` jobs: the caller's context and the rendered prompt. */
@JobProcessor(QUEUES.INBOUND_CONTEXT_LOOKUP)
export class InboundContextLookupProcessor implements JobHandler<
  unknown,
  InboundContextLookupResult
> {
  constructor(private readonly lookups: InboundContextLookupService) {}

  async handle(job: QueueJob<unknown>): Promise<InboundContextLookupResult> {
    return this.lookups.run(jobData(inboundContextLookupContract, job), {
      enqueuedAt: job.timestamp,
    });
  }
}
