import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Queue, QueueOptions } from 'bull';
import type { RedisTarget } from '../../config/redis-target';
import { slotNodeClient } from './slot-node-connector';

/** A connection to the service's Redis: one server or a cluster (ioredis gives both one API). */
export type RedisConnection = Redis | Cluster;

/** Options that belong to the cluster client itself; the rest go to each node's connection. */
const CLUSTER_LEVEL = ['enableOfflineQueue', 'enableAutoPipelining', 'keyPrefix', 'lazyConnect'] as const;

/** Reconnect delay after the n-th failed attempt: 200 ms more each time, at most 2 s (ioredis' default backs off towards 20 s). */
export const redisRetryStrategy = (attempt: number): number => Math.min(attempt * 200, 2000);

/**
 * A connection to `target` with `options` as for one server. On a cluster, the options that
 * concern the client as a whole (offline queue, auto-pipelining, key prefix, lazy connect, retry
 * strategy) are the cluster's, the rest each node's, with `REDIS_PASSWORD` and `REDIS_TLS`.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisConnection {
  if (target.kind === 'node')
    return new Redis(target.url, {
      ...(target.password ? { password: target.password } : {}),
      ...options,
    });
  const { retryStrategy, ...rest } = options;
  const clusterOptions: ClusterOptions = {};
  const nodeOptions: RedisOptions = { ...rest };
  for (const name of CLUSTER_LEVEL) {
    if (rest[name] !== undefined) Object.assign(clusterOptions, { [name]: rest[name] });
    delete nodeOptions[name];
  }
  if (rest.enableReadyCheck === false) clusterOptions.enableReadyCheck = false;
  if (target.password) nodeOptions.password = target.password;
  if (target.tls) nodeOptions.tls = {};
  return new Cluster(target.nodes, {
    ...clusterOptions,
    // ioredis gives up on the cluster when this returns null; a null per-node strategy is its own.
    clusterRetryStrategy: (times) => (retryStrategy ? (retryStrategy(times) ?? null) : redisRetryStrategy(times)),
    redisOptions: nodeOptions,
  });
}

/**
 * A Redis connection for a request path that must never wait on Redis: while Redis is down its
 * commands fail at once (no offline queue, one retry) and the caller falls back; it reconnects on
 * `redisRetryStrategy`; and commands issued in the same event-loop turn go to Redis in one write
 * (ioredis auto-pipelining, batched until setImmediate; per node on a cluster). Its callers report
 * the failures they see, so the connection's own 'error' events are dropped. A string is a
 * redis:// URL (one server).
 */
export function failFastRedis(
  target: RedisTarget | string,
  options: RedisOptions = {},
): RedisConnection {
  const redis = connectRedis(typeof target === 'string' ? { kind: 'node', url: target } : target, {
    ...options,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    retryStrategy: redisRetryStrategy,
  });
  redis.on('error', () => undefined);
  return redis;
}

/** A use of the process's shared fail-fast connection to one Redis target (`sharedFailFastRedis`). */
export interface SharedRedis {
  readonly connection: RedisConnection;
  /** Ends this use; the last one closes the connection. */
  release(): void;
}

const shared = new Map<string, { connection: RedisConnection; uses: number }>();

/**
 * The fail-fast connection (`failFastRedis`) to `target` that every request path of this process
 * shares: the commands one lookup sends to the routing table, its journal and the room's version
 * (and those of lookups running beside it) leave in one write when issued in the same turn,
 * instead of one write per connection. Each user releases its use; the last closes it.
 */
export function sharedFailFastRedis(target: RedisTarget): SharedRedis {
  const key = JSON.stringify(target);
  const held = shared.get(key) ?? { connection: failFastRedis(target), uses: 0 };
  shared.set(key, held);
  held.uses += 1;
  let released = false;
  return {
    connection: held.connection,
    release: () => {
      if (released) return;
      released = true;
      held.uses -= 1;
      if (held.uses > 0) return;
      shared.delete(key);
      held.connection.disconnect();
    },
  };
}

type BullClientType = 'client' | 'subscriber' | 'bclient';

/**
 * Bull's options for a queue on `target`: on one server its URL; on a cluster a `createClient`
 * that returns an ioredis `Cluster` (the blocking client without ready check and per-request retry
 * limit, as Bull requires). Given the queue's key `prefix` (a hash tag there, see
 * `queueKeyPrefix`), the subscriber is a connection to the master serving the queue's slot
 * (`slotNodeClient`), where the queue's events are published, instead of a node picked at random.
 * Call `closeQueueClients` after `queue.close()`: Bull leaves the clients it did not create open.
 */
export function bullRedisOptions(
  target: RedisTarget,
  prefix?: string,
): Pick<QueueOptions, 'redis' | 'createClient'> & { url?: string } {
  if (target.kind === 'node')
    return {
      url: target.url,
      redis: {
        retryStrategy: redisRetryStrategy,
        ...(target.password ? { password: target.password } : {}),
      },
    };
  const blocking = { retryStrategy: redisRetryStrategy, enableReadyCheck: false, maxRetriesPerRequest: null };
  return {
    createClient: (type: BullClientType) => {
      if (type === 'client') return connectRedis(target, { retryStrategy: redisRetryStrategy });
      if (type === 'subscriber' && prefix) return slotNodeClient({ ...target, key: prefix }, blocking);
      return connectRedis(target, blocking);
    },
  };
}

/** Disconnects the clients a queue got from its `createClient` (Bull closes only its own). */
export function closeQueueClients(queue: Queue): void {
  // Bull's getters create a client on first access: only those already created are touched.
  const clients = queue as Queue &
    Partial<Record<`${BullClientType}Initialized`, boolean>> & { eclient: Redis; bclient: Redis };
  if (clients.clientInitialized) clients.client.disconnect();
  if (clients.subscriberInitialized) clients.eclient.disconnect();
  if (clients.bclientInitialized) clients.bclient.disconnect();
}
