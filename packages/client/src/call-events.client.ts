import type { RedisNode, RedisTarget } from '../../../src/config/redis-target';
import { BullJobQueue } from '../../../src/queue/bull-job-queue';
import type { JobQueue } from '../../../src/queue/job-queue';
import {
  clusterTarget,
  openProducerQueue,
  type FromRedisClusterOptions,
} from '../../../src/queue/producer-queue';
import {
  endCallWebhookContract,
  type EndCallJobData,
  type EndCallOutcome,
} from '../../../src/contracts/end-call-webhook.contract';
import {
  callEndedContract,
  type CallEndedJobData,
  type CallEndedResult,
} from '../../../src/contracts/call-ended.contract';
import type { JobContract } from '../../../src/contracts/job-contract';
import {
  CALL_ENDED_JOB_OPTIONS,
  END_CALL_WEBHOOK_JOB_OPTIONS,
  QUEUES,
  TOOL_CALL_JOB_OPTIONS,
} from '../../../src/contracts/queues';
import {
  toolCallContract,
  type ToolCallJobData,
  type ToolCallResult,
} from '../../../src/contracts/tool-call.contract';

export interface CallEventsClientOptions {
  /** Bull key prefix; must match the service's `QUEUE_PREFIX` (default `bull`, Bull's own). */
  prefix?: string;
}

/**
 * What the call stack uses during a call, beside `InboundContextLookupClient`: runs a tool call
 * and waits for its answer, hands over the call-ended payload for delivery, and frees the room's concurrency slot. The service owns
 * the delivery's retries (END_CALL_WEBHOOK_ATTEMPTS, END_CALL_WEBHOOK_BACKOFF_MS), so a plain
 * `queue.add(data)` is delivered the same way; this client adds type checks and a delivery id.
 */
export class CallEventsClient {
  constructor(
    private readonly toolCalls: JobQueue<ToolCallJobData, ToolCallResult>,
    private readonly endCalls: JobQueue<EndCallJobData, EndCallOutcome>,
    private readonly callsEnded: JobQueue<CallEndedJobData, CallEndedResult>,
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** A standalone client on Redis, for producers outside this service. Call `close()` when done. */
  static fromRedisUrl(redisUrl: string, options: CallEventsClientOptions = {}): CallEventsClient {
    return CallEventsClient.on({ kind: 'node', url: redisUrl }, options.prefix);
  }

  /**
   * A standalone client on a Redis Cluster (`host:port,...` as the service's
   * `REDIS_CLUSTER_NODES`). Call `close()` when done.
   */
  static fromRedisCluster(
    nodes: string | RedisNode[],
    options: FromRedisClusterOptions = {},
  ): CallEventsClient {
    return CallEventsClient.on(clusterTarget(nodes, options), options.prefix);
  }

  private static on(target: RedisTarget, prefix: string | undefined): CallEventsClient {
    const tools = openProducerQueue<ToolCallJobData>(QUEUES.TOOL_CALL, target, prefix);
    const endCalls = openProducerQueue<EndCallJobData>(QUEUES.END_CALL_WEBHOOK, target, prefix);
    const ended = openProducerQueue<CallEndedJobData>(QUEUES.CALL_ENDED, target, prefix);
    return new CallEventsClient(
      new BullJobQueue(tools.queue),
      new BullJobQueue(endCalls.queue),
      new BullJobQueue(ended.queue),
      async () => {
        await Promise.all([tools.close(), endCalls.close(), ended.close()]);
      },
    );
  }

  /**
   * Runs a tool for the language model and resolves with `{status, result, latency_ms, error}`
   * within `waitMs`. A tool that fails or gets invalid arguments resolves with `status: "error"`
   * and a reason the model can act on. Rejections: `TypeError` (data the service would refuse,
   * naming the field), `JobWaitTimeoutError`, `QueueUnavailableError`, `JobFailedError`.
   */
  async callTool(data: ToolCallJobData, { waitMs }: { waitMs: number }): Promise<ToolCallResult> {
    return this.toolCalls.request(checked(toolCallContract, data), {
      ...TOOL_CALL_JOB_OPTIONS,
      waitMs,
    });
  }

  /**
   * Queues the call-ended payload for delivery to the assistant's `assistant_end_call_url`, with
   * retries on network errors, timeouts, 429 and 5xx. Resolves with the job id once Redis holds it
   * (the delivery survives worker restarts). Pass `deliveryId` (e.g. the room name) to make a
   * repeated hand-over of the same call a no-op.
   */
  async sendEndCall(
    data: EndCallJobData,
    { deliveryId }: { deliveryId?: string } = {},
  ): Promise<string> {
    return this.endCalls.add(checked(endCallWebhookContract, data), {
      ...END_CALL_WEBHOOK_JOB_OPTIONS,
      ...(deliveryId ? { jobId: deliveryId } : {}),
    });
  }

  /**
   * Says the room's call is over, so the concurrency slot its inbound number's policy counted is
   * free again, and resolves with `{released}` (whether the room held a slot) within `waitMs`.
   * Pass `inbound_number` when the room's own record of its slot may be gone. Rejections:
   * `TypeError` (data the service would refuse), `JobWaitTimeoutError`, `QueueUnavailableError`.
   */
  async endCall(data: CallEndedJobData, { waitMs }: { waitMs: number }): Promise<CallEndedResult> {
    return this.callsEnded.request(checked(callEndedContract, data), {
      ...CALL_ENDED_JOB_OPTIONS,
      waitMs,
    });
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}

/** Refuses data the service would refuse, before it reaches the queue (a `TypeError` naming the field). */
function checked<D>(contract: JobContract<D, unknown>, data: D): D {
  const parsed = contract.parse(data);
  if (!parsed.ok) throw new TypeError(`invalid ${contract.queue} data: ${parsed.error}`);
  return parsed.data;
}
