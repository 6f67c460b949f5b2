import { createHash } from 'node:crypto';
import { Process } from '@nestjs/bull';
import type { ConfigService } from '@nestjs/config';
import type { JobOptions } from 'bull';
import { JobProcessor, type JobHandler } from '../queue/job-processor.decorator';
import type { QueueJob } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import {
  EndCallWebhookService,
  type EndCallJobData,
  type EndCallOutcome,
} from './end-call-webhook.service';

export const END_CALL_DEFAULT_ATTEMPTS = 6;
export const END_CALL_DEFAULT_BACKOFF_MS = 2000;

/**
 * Options `end-call-webhook` jobs are added with. Six attempts with exponential backoff from 2 s
 * (Bull waits 2, 6, 14, 30, 62 s between them: about two minutes in all), configurable through
 * END_CALL_WEBHOOK_ATTEMPTS / END_CALL_WEBHOOK_BACKOFF_MS. Failed deliveries are kept a week.
 */
export function endCallWebhookJobOptions(config?: Pick<ConfigService, 'get'>): JobOptions {
  const attempts = config?.get<number>('webhook.endCallAttempts') ?? END_CALL_DEFAULT_ATTEMPTS;
  const delay = config?.get<number>('webhook.endCallBackoffMs') ?? END_CALL_DEFAULT_BACKOFF_MS;
  return {
    attempts,
    backoff: { type: 'exponential', delay },
    timeout: 30_000,
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}

export const END_CALL_WEBHOOK_JOB_OPTIONS = endCallWebhookJobOptions();

export const END_CALL_CONCURRENCY = 20;

/** Checks a job's data; returns the problem, or null when it is usable. */
export function endCallDataProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return 'job data must be an object';
  const d = data as Record<string, unknown>;
  for (const key of ['assistant_id', 'room_name'] as const) {
    const value = d[key];
    if (typeof value !== 'string' || value.trim() === '')
      return `${key} must be a non-empty string`;
    if (value.length > 255) return `${key} must be at most 255 characters`;
  }
  if (d.payload === undefined) return 'payload is required';
  return null;
}

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
    const problem = endCallDataProblem(job.data);
    if (problem) {
      job.discard();
      throw new Error(`malformed end-call-webhook job: ${problem}`);
    }
    const outcome = await this.endCall.deliver(job.data, {
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
