import Bull from 'bull';
import { Cluster } from 'ioredis';
import { configuredRedis } from '../../src/config/redis-target';
import {
  bullRedisOptions,
  closeQueueClients,
  connectRedis,
  sharedFailFastRedis,
} from '../../src/common/redis/redis-connection';

/**
 * The Redis the e2e run uses: one server (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`,
 * as `.ci/run` starts it), or null in embedded mode. Suites that talk to Redis themselves use
 * these, so they run unchanged on either.
 */
export const testRedis = configuredRedis(process.env);

/** Whether the run has Redis (one server or a cluster). */
export const redisConfigured = testRedis !== null;

/** Whether the run is on a Redis Cluster. */
export const onCluster = testRedis?.kind === 'cluster';

/** A connection of the test's own (close it with `disconnect()`). */
export function testRedisConnection() {
  if (!testRedis) throw new Error('no Redis configured for this run');
  return connectRedis(testRedis);
}

/**
 * A Bull queue of the test's own on the run's Redis. `prefix` is used as it is on one server and
 * as the hash tag `{prefix}` on a cluster (a queue's keys must share a slot there).
 */
export function testQueue<D>(name: string, prefix: string): Bull.Queue<D> {
  if (!testRedis) throw new Error('no Redis configured for this run');
  const keyPrefix = onCluster ? `{${prefix}}` : prefix;
  const { url, ...options } = bullRedisOptions(testRedis, keyPrefix);
  const queue = url
    ? new Bull<D>(name, url, { ...options, prefix: keyPrefix })
    : new Bull<D>(name, { ...options, prefix: keyPrefix });
  queue.once('close', () => closeQueueClients(queue));
  return queue;
}

/**
 * The names of the commands the process's shared fail-fast connection sends for `key` while `run`
 * runs, after Redis has forgotten its scripts (`SCRIPT FLUSH` on every master, as after a restart):
 * a script defined with `defineCommand` goes as EVAL at most once, then as EVALSHA.
 */
export async function scriptCommandsFor(key: string, run: () => Promise<void>): Promise<string[]> {
  const shared = sharedFailFastRedis(testRedis!);
  const redis = testRedisConnection();
  const sent = jest.spyOn(shared.connection, 'sendCommand');
  try {
    // The connection fails fast instead of queueing: wait until it answers (a cluster's takes a moment).
    for (let tries = 0; !(await shared.connection.ping().catch(() => null)); tries++) {
      if (tries === 250) throw new Error('the shared Redis connection did not answer');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
    await Promise.all(nodes.map((node) => node.script('FLUSH')));
    await run();
    return sent.mock.calls
      .map(([command]) => command)
      .filter((command) => command.args.includes(key))
      .map((command) => command.name);
  } finally {
    sent.mockRestore();
    redis.disconnect();
    shared.release();
  }
}
