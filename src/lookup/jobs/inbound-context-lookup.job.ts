import {
  inboundContextLookupContract,
  type InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import { AttemptLedger } from '../../activity-log/attempt-ledger';
import { QUEUES } from '../../contracts/queues';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import type { QueueJob } from '../../queue/job-queue';
import { isLastAllowedRun } from '../../queue/job-runs';
import { OwnerGate } from '../../queue/owner-gate';
import { RoutingTable } from '../routing/routing-table';
import { mappingKey } from '../utils/lookup-plan.util';
import { InboundContextLookupService } from '../inbound-context-lookup.service';
import { LookupAttempts } from '../utils/lookup-attempts.util';

/**
 * Consumes `inbound-context-lookup` jobs: the caller's context and the rendered prompt. The
 * strategy request is journaled under the job (`LookupAttempts`). At most `OWNER_MAX_IN_FLIGHT`
 * lookups of one owner (the number's, from the routing table) run at once (`OwnerGate`). A job whose worker stopped too
 * often (see `MAX_STALLED_RUNS`) is answered as past its deadline: the requests of its earlier runs
 * are recorded, the strategy is not called again and the fallback context applies.
 */
@JobProcessor(QUEUES.INBOUND_CONTEXT_LOOKUP)
export class InboundContextLookupProcessor implements JobHandler<
  unknown,
  InboundContextLookupResult
> {
  constructor(
    private readonly lookups: InboundContextLookupService,
    private readonly ledger: AttemptLedger,
    private readonly gate: OwnerGate,
    private readonly routing: RoutingTable,
  ) {}

  async handle(job: QueueJob<unknown>): Promise<InboundContextLookupResult> {
    const { id, timestamp } = job;
    const queue = QUEUES.INBOUND_CONTEXT_LOOKUP;
    const data = jobData(inboundContextLookupContract, job);
    // Long past any deadline by now (its worker stopped several lock times ago): answered as expired.
    const last = await isLastAllowedRun(job);
    const owner = await this.gate.ownerOf(
      `number:${mappingKey(data)}`,
      async () => (await this.routing.find(data))?.routing?.owner?.user_id,
    );
    return this.gate.run(queue, owner, () =>
      this.lookups.run(last ? { ...data, deadline_at: Date.now() } : data, {
        enqueuedAt: timestamp,
        attempts: new LookupAttempts(this.ledger, { queue, id, timestamp }),
      }),
    );
  }
}
