import {
  inboundContextLookupContract,
  type InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import { AttemptLedger } from '../../activity-log/attempt-ledger';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { InboundContextLookupService } from '../inbound-context-lookup.service';
import { LookupAttempts } from '../utils/lookup-attempts.util';

/**
 * Consumes `inbound-context-lookup` jobs: the caller's context and the rendered prompt. The
 * strategy request is journaled under the job (`LookupAttempts`).
 */
@JobProcessor(QUEUES.INBOUND_CONTEXT_LOOKUP)
export class InboundContextLookupProcessor implements JobHandler<
  unknown,
  InboundContextLookupResult
> {
  constructor(
    private readonly lookups: InboundContextLookupService,
    private readonly ledger: AttemptLedger,
  ) {}

  async handle(job: QueueJob<unknown>): Promise<InboundContextLookupResult> {
    const { id, timestamp } = job;
    const queue = QUEUES.INBOUND_CONTEXT_LOOKUP;
    return this.lookups.run(jobData(inboundContextLookupContract, job), {
      enqueuedAt: timestamp,
      attempts: new LookupAttempts(this.ledger, { queue, id, timestamp }),
    });
  }
}
