import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { withTimeout } from '../common/time/with-timeout';
import { BullJobQueue } from '../queue/bull-job-queue';
import { jobQueueToken, type JobQueue } from '../queue/job-queue';
import { SyncJobQueue } from '../queue/sync-job-queue';
import { ALL_QUEUES } from '../contracts/queues';
import { MetricsService, type QueueCounts } from './metrics.service';

/** A scrape must not hang on a dead Redis: queue gauges are left out instead. */
const COUNTS_TIMEOUT_MS = 1000;

/** Feeds the per-queue gauges: Bull's counts on Redis, or the in-process queues' own. */
@Injectable()
export class QueueCountsSource implements OnModuleInit {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics.setQueueCounts(() =>
      withTimeout(this.read(), COUNTS_TIMEOUT_MS, () => new Error('queue counts timed out')),
    );
  }

  private async read(): Promise<Record<string, QueueCounts>> {
    const entries = await Promise.all(
      ALL_QUEUES.map(async (name): Promise<[string, QueueCounts] | undefined> => {
        const queue = this.moduleRef.get<JobQueue>(jobQueueToken(name), { strict: false });
        if (queue instanceof SyncJobQueue) return [name, queue.counts()];
        if (queue instanceof BullJobQueue) {
          const c = await queue.queue.getJobCounts();
          return [
            name,
            { waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed },
          ];
        }
        return undefined;
      }),
    );
    return Object.fromEntries(entries.filter((e) => e !== undefined));
  }
}
