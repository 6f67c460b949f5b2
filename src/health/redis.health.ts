import { getQueueToken } from '@nestjs/bull';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { Queue } from 'bull';
import { QUEUES } from '../contracts/queues';
import { QUEUE_MODE, type QueueMode } from '../queue/queue.module';
import { withTimeout } from '../common/time/with-timeout';

const PING_TIMEOUT_MS = 1000;

/** Redis as Bull uses it: a PING on the queue connection, bounded so a dead Redis cannot hang /health. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly moduleRef: ModuleRef,
    @Optional() @Inject(QUEUE_MODE) private readonly mode: QueueMode = 'embedded',
  ) {}

  async check(key = 'redis'): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    if (this.mode !== 'redis') return session.up({ mode: 'embedded' });
    const queue = this.moduleRef.get<Queue>(getQueueToken(QUEUES.MAINTENANCE), { strict: false });
    try {
      await withTimeout(
        queue.client.ping(),
        PING_TIMEOUT_MS,
        () => new Error(`no PONG within ${PING_TIMEOUT_MS} ms`),
      );
      return session.up({ mode: 'redis' });
    } catch (error) {
      return session.down({
        mode: 'redis',
        message: error instanceof Error ? error.message : 'unreachable',
      });
    }
  }
}
