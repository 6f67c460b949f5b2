/**
 * The Redis side of `npm run bench:lookups`: the environment that points a process at a target, a
 * three-master cluster started for the run, and the cleanup of what a run leaves on a shared server.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { parseClusterNodes, type RedisTarget } from '../src/config/redis-target';

/** The cluster's ports: not CI's (7101-7103). */
export const CLUSTER_PORTS = process.env.BENCH_CLUSTER_PORTS ?? '7111 7112 7113';

/** What points a service or no-op process at `target` (the other variable emptied). */
export function redisEnv(target: RedisTarget): NodeJS.ProcessEnv {
  return target.kind === 'node'
    ? { REDIS_URL: target.url, REDIS_CLUSTER_NODES: '' }
    : {
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: target.nodes.map((n) => `${n.host}:${n.port}`).join(','),
      };
}

/** A three-master cluster on CLUSTER_PORTS; its target and the function that stops it. */
export function startCluster(): { target: RedisTarget; stop: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const env = { ...process.env, REDIS_CLUSTER_PORTS: CLUSTER_PORTS };
  const out = execFileSync('scripts/redis-cluster.sh', ['start', dir], { env }).toString();
  const nodes = /REDIS_CLUSTER_NODES=(\S+)/.exec(out)?.[1];
  if (!nodes) throw new Error(`scripts/redis-cluster.sh printed no nodes: ${out}`);
  return {
    target: { kind: 'cluster', nodes: parseClusterNodes(nodes), tls: false },
    stop: () => execFileSync('scripts/redis-cluster.sh', ['stop', dir], { env, stdio: 'inherit' }),
  };
}

/** Removes what a run left on the shared Redis server: every key under its prefixes. */
export async function forgetKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const stream = redis.scanStream({ match: `${prefix}*`, count: 1000 });
    for await (const keys of stream as AsyncIterable<string[]>)
      if (keys.length) await redis.unlink(...keys);
  } finally {
    redis.disconnect();
  }
}
