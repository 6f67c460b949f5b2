import { getQueueToken } from '@nestjs/bull';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { Queue } from 'bull';
import { Cluster } from 'ioredis';
import { QUEUES } from '../contracts/queues';
import { QUEUE_MODE, type QueueMode } from '../queue/queue.module';
import { withTimeout } from '../common/time/with-timeout';

const PING_TIMEOUT_MS = 1000;

/** The status of a dependency the process does not use (Redis in embedded mode). */
export const NOT_USED = 'not_used';

/** A dependency's entry in `/health` when the process does not use it. */
type NotUsedResult = Record<string, { status: typeof NOT_USED; mode: 'embedded' }>;

/**
 * Redis as Bull uses it: a PING on the queue connection, bounded so a dead Redis cannot hang
 * /health. On a cluster, a PING to every master node the client knows: one down is Redis down
 * (the queues whose slots it holds stop), and `nodes` says which.
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly moduleRef: ModuleRef,
    @Optional() @Inject(QUEUE_MODE) private readonly mode: QueueMode = 'embedded',
  ) {}

  async check(key = 'redis'): Promise<HealthIndicatorResult | NotUsedResult> {
    const session = this.indicator.check(key);
    // Embedded mode has no Redis: nothing to be up or down.
    if (this.mode !== 'redis') return { [key]: { status: NOT_USED, mode: 'embedded' } };
    const queue = this.moduleRef.get<Queue>(getQueueToken(QUEUES.MAINTENANCE), { strict: false });
    const client: unknown = queue.client;
    if (client instanceof Cluster) return this.checkCluster(session, client);
    try {
      await ping(queue.client.ping());
      return session.up({ mode: 'redis' });
    } catch (error) {
      return session.down({ mode: 'redis', message: messageOf(error) });
    }
  }

  private async checkCluster(
    session: ReturnType<HealthIndicatorService['check']>,
    cluster: Cluster,
  ): Promise<HealthIndicatorResult> {
    const masters = cluster.nodes('master');
    if (masters.length === 0)
      return session.down({ mode: 'cluster', message: `cluster ${cluster.status}: no master node` });
    const nodes: Record<string, string> = {};
    await Promise.all(
      masters.map(async (node) => {
        const name = `${node.options.host}:${node.options.port}`;
        nodes[name] = await ping(node.ping()).then(
          () => 'up',
          (error: unknown) => `down: ${messageOf(error)}`,
        );
      }),
    );
    const down = Object.values(nodes).some((state) => state !== 'up');
    return down
      ? session.down({ mode: 'cluster', nodes, message: 'a master node does not answer' })
      : session.up({ mode: 'cluster', nodes });
  }
}

function ping(pong: Promise<string>): Promise<string> {
  return withTimeout(pong, PING_TIMEOUT_MS, () => new Error(`no PONG within ${PING_TIMEOUT_MS} ms`));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unreachable';
}
