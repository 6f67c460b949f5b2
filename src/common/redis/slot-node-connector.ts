import { createConnection } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import calculateSlot from 'cluster-key-slot';
import Redis, { AbstractConnector, type RedisOptions } from 'ioredis';
import type { RedisNode } from '../../config/redis-target';

/** How long finding the slot's node may take on each node asked, at each (re)connection. */
const DISCOVERY_TIMEOUT_MS = 1000;

/** A cluster's nodes, how to reach them, and the key whose slot's master a connection goes to. */
export interface SlotNodeTarget {
  nodes: RedisNode[];
  password?: string;
  tls?: boolean;
  /** A key of the slot (a hash tag such as a queue's `{<queue>}` prefix names its slot). */
  key: string;
}

/** One row of `CLUSTER SLOTS`: the first and last slot, the master, then its replicas. */
type SlotRange = [number, number, ...[string, number, ...unknown[]][]];

/**
 * The master serving `slot` in a `CLUSTER SLOTS` reply, or null. An empty host means the host
 * the reply came from (`asked`), as Redis announces it when it knows no address of its own.
 */
export function slotMaster(ranges: SlotRange[], slot: number, asked: RedisNode): RedisNode | null {
  for (const [first, last, master] of ranges) {
    if (slot < first || slot > last || !master) continue;
    const [host, port] = master;
    return { host: host || asked.host, port: Number(port) };
  }
  return null;
}

/**
 * A plain ioredis client (not a `Cluster`) connected to the master that serves `target.key`'s
 * slot, for subscribing to what a queue publishes: Bull publishes its events from the scripts
 * that run on the queue's node, and Redis Cluster forwards a PUBLISH to the other nodes over its
 * bus, which (Redis 7.0) batches small messages, about 10 ms late under a steady stream. The node
 * is found anew at every (re)connection, so a failover or a moved slot is followed; if no node
 * answers, it connects to the nodes in turn, where the messages still arrive, only later.
 */
export function slotNodeClient(target: SlotNodeTarget, options: RedisOptions = {}): Redis {
  return new Redis({ ...options, ...access(target), Connector: connectorFor(target) });
}

/** The password and TLS every connection to the cluster's nodes uses. */
function access(target: SlotNodeTarget): RedisOptions {
  return {
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
  };
}

function connectorFor(target: SlotNodeTarget) {
  const slot = calculateSlot(target.key);
  let turn = 0;
  return class SlotNodeConnector extends AbstractConnector {
    constructor(options: unknown) {
      super((options as RedisOptions).disconnectTimeout ?? 2000);
    }

    override async connect() {
      this.connecting = true;
      const fallback = target.nodes[turn++ % target.nodes.length];
      const node = (await findSlotMaster(target, slot)) ?? fallback;
      if (!this.connecting) throw new Error('Connection is closed.');
      const stream = target.tls
        ? tlsConnect({ host: node.host, port: node.port })
        : createConnection({ host: node.host, port: node.port });
      stream.once('error', (error: Error) => (this.firstError = error));
      this.stream = stream;
      return stream;
    }
  };
}

/** Asks the nodes in turn which master serves `slot`; null when none answers. */
async function findSlotMaster(target: SlotNodeTarget, slot: number): Promise<RedisNode | null> {
  for (const node of target.nodes) {
    const probe = new Redis({
      host: node.host,
      port: node.port,
      ...access(target),
      lazyConnect: true,
      connectTimeout: DISCOVERY_TIMEOUT_MS,
      commandTimeout: DISCOVERY_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const ranges = (await probe.cluster('SLOTS')) as unknown as SlotRange[];
      const master = slotMaster(ranges, slot, node);
      if (master) return master;
    } catch {
      // This node cannot say (down, or not a cluster node): ask the next.
    } finally {
      probe.disconnect();
    }
  }
  return null;
}
