/**
 * The no-op Bull job the lookup figures stand beside: a worker process consuming a queue of the same
 * name and key shape as the service's lookup queue (under its own prefix), with the service's
 * concurrency, whose handler returns at once. What a Bull job's round trip costs on this Redis with
 * nothing in it. Env: REDIS_URL or REDIS_CLUSTER_NODES, QUEUE_PREFIX. Ends on SIGTERM.
 */
import { configuredRedis } from '../src/config/redis-target';
import { QUEUES, QUEUE_SETTINGS } from '../src/contracts/queues';
import { openProducerQueue } from '../src/queue/producer-queue';

const target = configuredRedis();
if (!target) throw new Error('noop-worker: REDIS_URL or REDIS_CLUSTER_NODES is required');
const name = QUEUES.INBOUND_CONTEXT_LOOKUP;
const { queue, close } = openProducerQueue(name, target, process.env.QUEUE_PREFIX);
/** Shaped like a lookup's result, so the producer reads it the same way. */
const ANSWER = { status: 'success', latency_ms: 0, error: null };

void queue.process(QUEUE_SETTINGS[name].concurrency, () => Promise.resolve(ANSWER));
process.once('SIGTERM', () => {
  void close().finally(() => process.exit(0));
});
