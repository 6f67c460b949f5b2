import Bull from 'bull';
import { parseClusterNodes, type RedisNode, type RedisTarget } from '../config/redis-target';
import { queueKeyPrefix, type QueueName } from '../contracts/queues';
import { bullRedisOptions, closeQueueClients } from '../common/redis/redis-connection';

/** How a standalone client reaches a Redis Cluster. */
export interface FromRedisClusterOptions {
  /** The service's `QUEUE_PREFIX`, if it sets one: queue keys are then `{<prefix>:<queue>}:…`. */
  prefix?: string;
  /** The nodes' password (the service's `REDIS_PASSWORD`). */
  password?: string;
  /** TLS to every node (the service's `REDIS_TLS`). */
  tls?: boolean;
}

/** `host:port,...` (as in `REDIS_CLUSTER_NODES`) or a list of nodes, as a cluster target. */
export function clusterTarget(
  nodes: string | RedisNode[],
  options: FromRedisClusterOptions,
): RedisTarget {
  return {
    kind: 'cluster',
    nodes: typeof nodes === 'string' ? parseClusterNodes(nodes) : nodes,
    password: options.password,
    tls: options.tls ?? false,
  };
}

/**
 * A producer's Bull queue on the service's Redis, under the key prefix the service uses for it
 * (`queueKeyPrefix`), and the function that closes it with every connection it opened.
 */
export function openProducerQueue<D>(
  name: QueueName,
  target: RedisTarget,
  prefix: string | undefined,
): { queue: Bull.Queue<D>; close: () => Promise<void> } {
  const keyPrefix = queueKeyPrefix(name, { cluster: target.kind === 'cluster', prefix });
  const { url, ...redisOptions } = bullRedisOptions(target, keyPrefix);
  const options = { ...redisOptions, prefix: keyPrefix };
  const queue = url ? new Bull<D>(name, url, options) : new Bull<D>(name, options);
  return {
    queue,
    close: async () => {
      await queue.close();
      closeQueueClients(queue);
    },
  };
}
