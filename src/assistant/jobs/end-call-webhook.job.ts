import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { JournalJob } from '../../activity-log/attempt-journal';
import { AttemptLedger } from '../../activity-log/attempt-ledger';
import { childTraceparent, traceOf } from '../../telemetry/trace-context';
import type { AppConfig } from '../../config/app-config';
import {
  endCallWebhookContract,
  type EndCallDelivery,
  type EndCallJobData,
  type EndCallOutcome,
} from '../../contracts/end-call-webhook.contract';
import { END_CALL_WEBHOOK_JOB_OPTIONS, QUEUES } from '../../contracts/queues';
import { InjectJobQueue } from '../../queue/inject-job-queue';
import { jobData } from '../../queue/job-data';
import { JobProcessor, type JobHandler } from '../../queue/job-processor.decorator';
import { backoffDelay, type JobQueue, type QueueJob } from '../../queue/job-queue';
import { EXHAUSTED_MESSAGE, isLastAllowedRun } from '../../queue/job-runs';
import { OwnerGate } from '../../queue/owner-gate';
import { AssistantRepository } from '../assistant.repository';
import { CallEndings } from '../call-endings';
import { EndCallWebhookService } from '../end-call-webhook.service';

/**
 * The `webhook-id` of one delivery, from its first job (queue, id and creation time), so a counter
 * reset on a fresh Redis cannot make two deliveries share one. The service's own retries carry it
 * in `delivery.webhook_id`: every attempt sends the same id and a receiver can drop duplicates.
 */
export function deliveryWebhookId(job: QueueJob<unknown>): string {
  const seed = `${QUEUES.END_CALL_WEBHOOK}:${String(job.id)}:${job.timestamp}`;
  return `msg_${createHash('sha256').update(seed).digest('base64url').slice(0, 32)}`;
}

/** The job id of a retry the service schedules: derived from the delivery and the attempt. */
export function retryJobId({ webhook_id, attempt }: EndCallDelivery): string {
  return `${webhook_id}-attempt-${attempt}`;
}

/**
 * `delivery` as the job may use it: only on a retry the service scheduled (its job id is the one
 * `retryJobId` derives from it). A producer's `delivery` is ignored: it cannot choose the
 * `webhook-id` or the attempt number.
 */
export function trustedDelivery(
  job: Pick<QueueJob<unknown>, 'id'>,
  delivery: EndCallDelivery | undefined,
): EndCallDelivery | undefined {
  return delivery && String(job.id) === retryJobId(delivery) ? delivery : undefined;
}

/** Wait before attempt `attempt + 1`: `backoffMs`, doubling with each retry. */
export function retryDelayMs(backoffMs: number, attempt: number): number {
  return backoffDelay({ type: 'exponential', delay: backoffMs }, attempt);
}

/**
 * Consumes `end-call-webhook` jobs, one delivery attempt per job. The retry policy is the
 * service's, whatever options the producer added the job with: a retryable failure (network
 * error, timeout, 408, 429, 5xx) with attempts left completes this job with `status: "retry"` and
 * adds the next attempt as a delayed job carrying the attempt number and the delivery's
 * `webhook-id` (its job id is derived from both, so a redelivered job cannot fork a second
 * chain). A final failure, or the last attempt, fails the job without a Bull retry; no URL
 * completes with nothing sent.
 */
@JobProcessor(QUEUES.END_CALL_WEBHOOK)
export class EndCallWebhookProcessor implements JobHandler<EndCallJobData, EndCallOutcome> {
  private readonly logger = new Logger('EndCallWebhook');
  private readonly maxAttempts: number;
  private readonly backoffMs: number;

  constructor(
    private readonly endCall: EndCallWebhookService,
    private readonly ledger: AttemptLedger,
    @InjectJobQueue(QUEUES.END_CALL_WEBHOOK) private readonly queue: JobQueue<EndCallJobData>,
    config: ConfigService<AppConfig, true>,
    private readonly gate: OwnerGate,
    private readonly assistants: AssistantRepository,
    private readonly endings: CallEndings,
  ) {
    this.maxAttempts = config.get('webhook.endCallAttempts', { infer: true });
    this.backoffMs = config.get('webhook.endCallBackoffMs', { infer: true });
  }

  async handle(job: QueueJob<EndCallJobData>): Promise<EndCallOutcome> {
    // Whatever the producer asked for, a failed job is never retried by Bull: see above.
    job.discard();
    const { delivery: claimed, ...data } = jobData(endCallWebhookContract, job);
    const delivery = trustedDelivery(job, claimed);
    const attempt = delivery?.attempt ?? 1;
    const webhookId = delivery?.webhook_id ?? deliveryWebhookId(job);
    const maxAttempts = Math.max(this.maxAttempts, attempt);
    // Every attempt of one delivery is in one trace, started here when the producer sent none.
    const trace = traceOf(data.traceparent);
    const journal = { queue: QUEUES.END_CALL_WEBHOOK, id: job.id, timestamp: job.timestamp };
    // The room's first job says its call ended (the service's own retries do not say it again).
    if (!delivery) await this.endings.ended(data.room_name);
    const outcome = (await isLastAllowedRun(job))
      ? await this.exhausted(journal, attempt, data.assistant_version ?? null)
      : await this.gate.run(QUEUES.END_CALL_WEBHOOK, await this.ownerOf(data), () =>
          this.endCall.deliver(data, { attempt, maxAttempts, webhookId, trace, job: journal }),
        );
    if (outcome.status === 'retry' && attempt < maxAttempts) {
      // The retries keep this attempt's trace and the version it used, whatever the room's memory says later.
      const next = {
        ...data,
        traceparent: childTraceparent(trace),
        assistant_version: outcome.assistant_version,
      };
      await this.scheduleNext(next, attempt + 1, webhookId);
      return outcome;
    }
    if (outcome.status === 'retry' || outcome.status === 'failed') {
      throw new Error(
        `end-call webhook delivery failed${outcome.status === 'retry' ? ` after ${attempt} attempts` : ' permanently'}: ${outcome.error} (error_class ${outcome.error_class})`,
      );
    }
    return outcome;
  }

  /** Whose endpoints the delivery waits on, for the per-owner gate: the assistant's owner. */
  private ownerOf({ assistant_id }: EndCallJobData): Promise<string> {
    return this.gate.ownerOf(
      `assistant:${assistant_id}`,
      async () => (await this.assistants.ownerOf(assistant_id))?.user_id,
    );
  }

  /**
   * A run after the job's worker stopped too often (see `MAX_STALLED_RUNS`): what earlier runs sent
   * is recorded, nothing is sent now, and the attempt counts as a failed one (the next attempt is
   * scheduled as for any retryable failure).
   */
  private async exhausted(
    journal: JournalJob,
    attempt: number,
    version: number | null,
  ): Promise<EndCallOutcome> {
    await this.ledger.recoverLost(journal);
    return {
      status: 'retry',
      status_code: null,
      attempt,
      error: EXHAUSTED_MESSAGE,
      error_class: 'internal',
      log_id: null,
      assistant_version: version,
    };
  }

  private async scheduleNext(data: EndCallJobData, attempt: number, webhookId: string) {
    const delay = retryDelayMs(this.backoffMs, attempt - 1);
    const jobId = await this.queue.add(
      { ...data, delivery: { attempt, webhook_id: webhookId } },
      {
        ...END_CALL_WEBHOOK_JOB_OPTIONS,
        delay,
        jobId: retryJobId({ webhook_id: webhookId, attempt }),
      },
    );
    this.logger.log(
      { queue: QUEUES.END_CALL_WEBHOOK, job_id: jobId, attempt, delay_ms: delay },
      'end-call webhook retry scheduled',
    );
  }
}
