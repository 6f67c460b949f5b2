/**
 * Where the service's Redis is: one server (`REDIS_URL`) or a Redis Cluster
 * (`REDIS_CLUSTER_NODES=host:port,...`, with `REDIS_PASSWORD` and `REDIS_TLS` as ioredis takes
 * them). Nest-free: the shipped clients and the entry points read it before validation.
 */
export interface RedisNode {
  host: string;
  port: number;
}

export type RedisTarget =
  | {
      kind: 'node';
      /** redis://… or rediss://… */
      url: string;
      /** `REDIS_PASSWORD`, when the URL carries none. */
      password?: string;
    }
  | {
      kind: 'cluster';
      /** The nodes the client starts from; it learns the others from them. */
      nodes: RedisNode[];
      password?: string;
      /** TLS to every node (ioredis `tls: {}`: the system's CAs). */
      tls: boolean;
    };

/** `host:port` entries, comma-separated; a host may be a name, IPv4 or a bracketed IPv6. */
export const CLUSTER_NODES_PATTERN =
  /^\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}(\s*,\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5})*\s*$/;

/** `REDIS_CLUSTER_NODES` as a list of nodes (the value is already checked by CLUSTER_NODES_PATTERN). */
export function parseClusterNodes(value: string): RedisNode[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      const host = entry.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
      return { host, port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * The Redis the environment names, or null (jobs in-process), read without validating the rest:
 * the queue module is defined when the process wiring is imported, before validation (which
 * refuses both variables at once, so which one wins here never matters to a running process).
 */
export function configuredRedis(env: NodeJS.ProcessEnv = process.env): RedisTarget | null {
  const password = env.REDIS_PASSWORD || undefined;
  if (env.REDIS_CLUSTER_NODES) {
    return {
      kind: 'cluster',
      nodes: parseClusterNodes(env.REDIS_CLUSTER_NODES),
      password,
      tls: env.REDIS_TLS === 'true',
    };
  }
  if (env.REDIS_URL) return { kind: 'node', url: env.REDIS_URL, password };
  return null;
}

/** For logs: the URL without its password, or the cluster's seed nodes. */
export function describeRedis(target: RedisTarget): string {
  if (target.kind === 'cluster')
    return `Cluster ${target.nodes.map(({ host, port }) => `${host}:${port}`).join(',')}`;
  return target.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
