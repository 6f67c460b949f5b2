import type { RedisNode } from '../../../src/config/redis-target';
import {
  clusterTarget,
  openProducerQueue,
  type FromRedisClusterOptions,
} from '../../../src/queue/producer-queue';
import { BullJobQueue } from '../../../src/queue/bull-job-queue';
import type { JobQueue } from '../../../src/queue/job-queue';
import {
  parseLookupJobData,
  type InboundContextLookupJobData,
  type InboundContextLookupResult,
} from '../../../src/contracts/inbound-context-lookup.contract';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS, QUEUES } from '../../../src/contracts/queues';

export interface LookupOptions {
  /** How long to wait for the result; past it `lookup` rejects with `JobWaitTimeoutError`. */
  waitMs: number;
  /** Idempotency: a job id already in the queue is not added twice (e.g. the room name). */
  jobId?: string;
}

export interface FromRedisOptions {
  /** Bull key prefix; must match the service's `QUEUE_PREFIX` (default `bull`, Bull's own). */
  prefix?: string;
}

/**
 * What the call stack uses to get an inbound call's context: adds an `inbound-context-lookup` job
 * and resolves with its return value within `waitMs`. The result arrives even when Bull drops the
 * completion event (the queue listens for global events registered before `add` and falls back
 * to reading the job). Rejections: `JobWaitTimeoutError` (no answer in time; start the call with
 * the unrendered prompt), `JobFailedError` (malformed data), `QueueUnavailableError` (Redis down).
 * Customer-side failures are not rejections: they resolve with `status: "error"`.
 */
export class InboundContextLookupClient {
  constructor(
    private readonly queue: JobQueue<InboundContextLookupJobData, InboundContextLookupResult>,
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** A standalone client on Redis, for producers outside this service (the call worker). Call `close()` when done. */
  static fromRedisUrl(
    redisUrl: string,
    options: FromRedisOptions = {},
  ): InboundContextLookupClient {
    return InboundContextLookupClient.on(
      openProducerQueue(QUEUES.INBOUND_CONTEXT_LOOKUP, { kind: 'node', url: redisUrl }, options.prefix),
    );
  }

  /**
   * A standalone client on a Redis Cluster (`host:port,...` as the service's
   * `REDIS_CLUSTER_NODES`). Call `close()` when done.
   */
  static fromRedisCluster(
    nodes: string | RedisNode[],
    options: FromRedisClusterOptions = {},
  ): InboundContextLookupClient {
    return InboundContextLookupClient.on(
      openProducerQueue(QUEUES.INBOUND_CONTEXT_LOOKUP, clusterTarget(nodes, options), options.prefix),
    );
  }

  private static on({
    queue,
    close,
  }: ReturnType<typeof openProducerQueue<InboundContextLookupJobData>>): InboundContextLookupClient {
    return new InboundContextLookupClient(
      new BullJobQueue<InboundContextLookupJobData, InboundContextLookupResult>(queue),
      close,
    );
  }

  async lookup(
    data: InboundContextLookupJobData,
    options: LookupOptions,
  ): Promise<InboundContextLookupResult> {
    const parsed = parseLookupJobData({ deadline_at: Date.now() + options.waitMs, ...data });
    if (!parsed.ok) throw new TypeError(`invalid inbound-context-lookup data: ${parsed.error}`);
    return this.queue.request(parsed.data, {
      ...INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS,
      waitMs: options.waitMs,
      ...(options.jobId ? { jobId: options.jobId } : {}),
    });
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
