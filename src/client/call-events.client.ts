import Bull, { type JobOptions } from 'bull';
import { endCallWebhookJobOptions } from '../assistant/end-call-webhook.processor';
import type { EndCallJobData, EndCallOutcome } from '../assistant/end-call-webhook.service';
import { BullJobQueue } from '../queue/bull-job-queue';
import type { JobQueue } from '../queue/job-queue';
import { QUEUES } from '../queue/queue.constants';
import { redisRetryStrategy } from '../queue/redis-retry';
import { TOOL_CALL_JOB_OPTIONS } from '../tool/tool-call.processor';
import type { ToolCallJobData, ToolCallResult } from '../tool/tool-call.service';

export interface CallEventsClientOptions {
  /** Bull key prefix; must match the service's `QUEUE_PREFIX` (default `vac`). */
  prefix?: string;
  /** Delivery attempts of an end-call webhook (default 6, as the service's END_CALL_WEBHOOK_ATTEMPTS). */
  endCallAttempts?: number;
  /** First retry delay in ms, doubling each retry (default 2000, as END_CALL_WEBHOOK_BACKOFF_MS). */
  endCallBackoffMs?: number;
}

/**
 * What the call stack uses during a call, beside `InboundContextLookupClient`: runs a tool call
 * and waits for its answer, and hands over the call-ended payload for delivery. Job options are
 * part of the contract: Bull retries a job only as often as its producer asked, so end-call jobs
 * added without this client's options (attempts, exponential backoff) are delivered once.
 */
export class CallEventsClient {
  constructor(
    private readonly toolCalls: JobQueue<ToolCallJobData, ToolCallResult>,
    private readonly endCalls: JobQueue<EndCallJobData, EndCallOutcome>,
    private readonly endCallOptions: JobOptions = endCallWebhookJobOptions(),
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** A standalone client on Redis, for producers outside this service. Call `close()` when done. */
  static fromRedisUrl(redisUrl: string, options: CallEventsClientOptions = {}): CallEventsClient {
    const queueOptions = {
      prefix: options.prefix ?? 'vac',
      redis: { retryStrategy: redisRetryStrategy },
    };
    const toolQueue = new Bull<ToolCallJobData>(QUEUES.TOOL_CALL, redisUrl, queueOptions);
    const endCallQueue = new Bull<EndCallJobData>(QUEUES.END_CALL_WEBHOOK, redisUrl, queueOptions);
    const config = {
      get: <T>(key: string): T | undefined =>
        (key === 'webhook.endCallAttempts'
          ? options.endCallAttempts
          : key === 'webhook.endCallBackoffMs'
            ? options.endCallBackoffMs
            : undefined) as T | undefined,
    };
    return new CallEventsClient(
      new BullJobQueue(toolQueue),
      new BullJobQueue(endCallQueue),
      endCallWebhookJobOptions(config),
      async () => {
        await Promise.all([toolQueue.close(), endCallQueue.close()]);
      },
    );
  }

  /**
   * Runs a tool for the language model and resolves with `{status, result, latency_ms, error}`
   * within `waitMs`. A tool that fails or gets invalid arguments resolves with `status: "error"`
   * and a reason the model can act on; only transport problems reject (`JobWaitTimeoutError`,
   * `QueueUnavailableError`, `JobFailedError` for malformed job data).
   */
  callTool(data: ToolCallJobData, { waitMs }: { waitMs: number }): Promise<ToolCallResult> {
    return this.toolCalls.request(data, { ...TOOL_CALL_JOB_OPTIONS, waitMs });
  }

  /**
   * Queues the call-ended payload for delivery to the assistant's `assistant_end_call_url`, with
   * retries on network errors, timeouts, 429 and 5xx. Resolves with the job id once Redis holds it
   * (the delivery survives worker restarts). Pass `deliveryId` (e.g. the room name) to make a
   * repeated hand-over of the same call a no-op.
   */
  sendEndCall(data: EndCallJobData, { deliveryId }: { deliveryId?: string } = {}): Promise<string> {
    return this.endCalls.add(data, {
      ...this.endCallOptions,
      ...(deliveryId ? { jobId: deliveryId } : {}),
    });
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
