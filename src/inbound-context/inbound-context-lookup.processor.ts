import { Process } from '@nestjs/bull';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import {
  parseLookupJobData,
  type InboundContextLookupResult,
} from '../contracts/inbound-context-lookup.contract';
import { InboundContextLookupService } from './inbound-context-lookup.service';
import { INBOUND_CONTEXT_LOOKUP_CONCURRENCY } from './inbound-context-lookup.job-options';

export class InvalidLookupJobError extends Error {
  constructor(reason: string) {
    super(`invalid inbound-context-lookup job data: ${reason}`);
    this.name = 'InvalidLookupJobError';
  }
}

@JobProcessor(QUEUES.INBOUND_CONTEXT_LOOKUP)
export class InboundContextLookupProcessor implements JobHandler<
  unknown,
  InboundContextLookupResult
> {
  constructor(private readonly lookups: InboundContextLookupService) {}

  @Process({ concurrency: INBOUND_CONTEXT_LOOKUP_CONCURRENCY })
  async handle(job: QueueJob<unknown>): Promise<InboundContextLookupResult> {
    const parsed = parseLookupJobData(job.data);
    if (!parsed.ok) {
      // Permanent: the same data fails the same way on every attempt.
      job.discard();
      throw new InvalidLookupJobError(parsed.error);
    }
    return this.lookups.run(parsed.data, { enqueuedAt: job.timestamp });
  }
}

/** What the worker registers for this queue (src/worker-processors.ts). */
export const INBOUND_CONTEXT_LOOKUP_PROVIDERS = [InboundContextLookupProcessor];
