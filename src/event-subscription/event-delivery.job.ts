import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { retryDelayMs, retryJobId, trustedDelivery } from '../assistant/jobs/end-call-webhook.job';
import type { AppConfig } from '../config/app-config';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { InjectJobQueue } from '../queue/inject-job-queue';
import { MalformedJobError } from '../queue/job-data';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { JobQueue, QueueJob } from '../queue/job-queue';
import { OwnerGate } from '../queue/owner-gate';
import { EventDelivery, eventWebhookId, type EventDeliveryOutcome } from './event-delivery.service';
import { EventSubscriptionRepository } from './event-subscription.repository';
import type { EventDeliveryJobData } from './tenant-events';

/** What a job's data must hold; anything else is a job this service did not add. */
function parse(job: QueueJob<unknown>): EventDeliveryJobData {
  const data = job.data as Partial<EventDeliveryJobData> | null;
  const event = data?.event;
  if (
    typeof data?.subscription_id !== 'string' ||
    typeof event?.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.timestamp !== 'string'
  ) {
    job.discard();
    throw new MalformedJobError(QUEUES.EVENT_DELIVERY, 'not an event delivery');
  }
  return data as EventDeliveryJobData;
}

/**
 * Consumes `event-delivery` jobs, one attempt per job, with the end-call deliveries' policy and
 * settings (`END_CALL_WEBHOOK_ATTEMPTS`, `END_CALL_WEBHOOK_BACKOFF_MS`): a retryable failure with
 * attempts left adds the next attempt as a delayed job whose id derives from the delivery and the
 * attempt, so a redelivered job cannot fork a second chain. A subscriber that fails or hangs holds
 * only its own job (bounded by the delivery deadline and the per-owner gate), never another's.
 * A subscription deleted meanwhile completes the job with nothing sent.
 */
@JobProcessor(QUEUES.EVENT_DELIVERY)
export class EventDeliveryProcessor implements JobHandler<
  EventDeliveryJobData,
  EventDeliveryOutcome | { status: 'skipped' }
> {
  private readonly logger = new Logger('EventDelivery');
  private readonly maxAttempts: number;
  private readonly backoffMs: number;

  constructor(
    private readonly delivery: EventDelivery,
    private readonly subscriptions: EventSubscriptionRepository,
    @InjectJobQueue(QUEUES.EVENT_DELIVERY) private readonly queue: JobQueue<EventDeliveryJobData>,
    private readonly gate: OwnerGate,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxAttempts = config.get('webhook.endCallAttempts', { infer: true });
    this.backoffMs = config.get('webhook.endCallBackoffMs', { infer: true });
  }

  async handle(
    job: QueueJob<EventDeliveryJobData>,
  ): Promise<EventDeliveryOutcome | { status: 'skipped' }> {
    job.discard();
    const { delivery: claimed, ...data } = parse(job);
    const attempt = trustedDelivery(job, claimed)?.attempt ?? 1;
    const maxAttempts = Math.max(this.maxAttempts, attempt);
    const subscription = await this.subscriptions.findById(data.subscription_id);
    if (!subscription) return { status: 'skipped' };
    const outcome = await this.gate.run(QUEUES.EVENT_DELIVERY, subscription.user_id, () =>
      this.delivery.attempt(subscription, data.event, { attempt, maxAttempts }),
    );
    if (outcome.status === 'retry' && attempt < maxAttempts) {
      await this.scheduleNext(data, attempt + 1);
      return outcome;
    }
    if (outcome.status !== 'delivered')
      throw new Error(
        `event delivery failed${outcome.status === 'retry' ? ` after ${attempt} attempts` : ' permanently'}: ${outcome.error} (error_class ${outcome.error_class})`,
      );
    return outcome;
  }

  private async scheduleNext(data: EventDeliveryJobData, attempt: number): Promise<void> {
    const webhookId = eventWebhookId(data.subscription_id, data.event.id);
    const delay = retryDelayMs(this.backoffMs, attempt - 1);
    const jobId = await this.queue.add(
      { ...data, delivery: { attempt, webhook_id: webhookId } },
      {
        ...QUEUE_SETTINGS[QUEUES.EVENT_DELIVERY].options,
        delay,
        jobId: retryJobId({ webhook_id: webhookId, attempt }),
      },
    );
    this.logger.log(
      { queue: QUEUES.EVENT_DELIVERY, job_id: jobId, attempt, delay_ms: delay },
      'event delivery retry scheduled',
    );
  }
}
