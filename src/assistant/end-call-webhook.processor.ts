import { createHash } from 'node:crypto';
import { Process } from '@nestjs/bull';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import {
  endCallWebhookContract,
  type EndCallJobData,
  type EndCallOutcome,
} from '../contracts/end-call-webhook.contract';
import { EndCallWebhookService } from './end-call-webhook.service';

export {
  END_CALL_DEFAULT_ATTEMPTS,
  END_CALL_DEFAULT_BACKOFF_MS,
  END_CALL_WEBHOOK_JOB_OPTIONS,
  endCallWebhookJobOptions,
} from '../contracts/end-call-webhook.contract';

export const END_CALL_CONCURRENCY = 20;

/**
 * The `webhook-id` of one delivery: derived from the job (queue, id and creation time, which Bull
 * keeps across retries), so every attempt carries the same id and a receiver can drop duplicates,
 * while a counter reset on a fresh Redis cannot make two deliveries share one.
 */
export function deliveryWebhookId(job: QueueJob<unknown>): string {
  const seed = `${QUEUES.END_CALL_WEBHOOK}:${String(job.id)}:${job.timestamp}`;
  return `msg_${createHash('sha256').update(seed).digest('base64url').slice(0, 32)}`;
}

/**
 * Consumes `end-call-webhook` jobs. A retryable failure throws so Bull retries with backoff; a
 * final one is discarded, then thrown, so it fails at once; no URL completes with nothing sent.
 */
@JobProcessor(QUEUES.END_CALL_WEBHOOK)
export class EndCallWebhookProcessor implements JobHandler<EndCallJobData, EndCallOutcome> {
  constructor(private readonly endCall: EndCallWebhookService) {}

  @Process({ concurrency: END_CALL_CONCURRENCY })
  async handle(job: QueueJob<EndCallJobData>): Promise<EndCallOutcome> {
    const parsed = endCallWebhookContract.parse(job.data);
    if (!parsed.ok) {
      job.discard();
      throw new Error(`malformed end-call-webhook job: ${parsed.error}`);
    }
    const outcome = await this.endCall.deliver(parsed.data, {
      attempt: job.attemptsMade + 1,
      maxAttempts: Math.max(1, job.opts.attempts ?? 1),
      webhookId: deliveryWebhookId(job),
    });
    if (outcome.status === 'retry')
      throw new Error(`end-call webhook delivery failed: ${outcome.error}`);
    if (outcome.status === 'failed') {
      job.discard();
      throw new Error(`end-call webhook delivery failed permanently: ${outcome.error}`);
    }
    return outcome;
  }
}

/** Everything the end-call job needs beyond the feature modules: add to the worker providers. */
export const END_CALL_WEBHOOK_PROVIDERS = [EndCallWebhookService, EndCallWebhookProcessor];
