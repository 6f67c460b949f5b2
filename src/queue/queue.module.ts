import { BullModule, getQueueToken } from '@nestjs/bull';
import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Queue } from 'bull';
import type { AppConfig } from '../config/app-config';
import { configuredRedis, type RedisTarget } from '../config/redis-target';
import { ALL_QUEUES, DEFAULT_JOB_OPTIONS, MAX_STALLED_RUNS } from '../contracts/queues';
import { bullRedisOptions, closeQueueClients } from '../common/redis/redis-connection';
import { BullJobQueue } from './bull-job-queue';
import { settleDroppedPromises } from './bull-dropped-promises';
import { enforceServiceOptions } from './service-job-options';
import { CAPPED_BACKOFF, cappedBackoff, jobQueueToken } from './job-queue';
import { SyncJobQueue } from './sync-job-queue';

export const QUEUE_MODE = 'QUEUE_MODE';
export type QueueMode = 'redis' | 'embedded';

/**
 * Provides a `JobQueue` per queue name: Bull on Redis when `REDIS_URL` or `REDIS_CLUSTER_NODES`
 * is set (on a cluster each queue under its hash-tag prefix), in-process otherwise. Whether this process also consumes is decided by whether the modules' jobs modules
 * (and with them `QueueWorkerModule`) are imported, not here.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(redis: RedisTarget | null = configuredRedis()): DynamicModule {
    const tokens = ALL_QUEUES.map(jobQueueToken);
    if (redis) {
      const providers: Provider[] = ALL_QUEUES.map((name) => ({
        provide: jobQueueToken(name),
        useFactory: (queue: Queue) => {
          settleDroppedPromises(queue);
          enforceServiceOptions(queue, name);
          queue.once('close', () => closeQueueClients(queue));
          return new BullJobQueue(queue);
        },
        inject: [getQueueToken(name)],
      }));
      return {
        module: QueueModule,
        imports: [
          // What every queue shares; its Redis clients are its own (below).
          BullModule.forRootAsync({
            inject: [ConfigService],
            useFactory: (config: ConfigService<AppConfig, true>) => ({
              defaultJobOptions: DEFAULT_JOB_OPTIONS,
              settings: {
                // How soon a job held by a worker that died is handed to another worker.
                lockDuration: config.get('queue.lockMs', { infer: true }),
                stalledInterval: config.get('queue.lockMs', { infer: true }),
                backoffStrategies: { [CAPPED_BACKOFF]: cappedBackoff },
                // A job is run again after each stop (see MAX_STALLED_RUNS), not failed after the second.
                maxStalledCount: MAX_STALLED_RUNS,
              },
            }),
          }),
          BullModule.registerQueueAsync(
            ...ALL_QUEUES.map((name) => ({
              name,
              inject: [ConfigService],
              // The queue's clients: on a cluster its subscriber is on the master of its slot.
              useFactory: (config: ConfigService<AppConfig, true>) => {
                const prefix = config.get('queue.queuePrefixes', { infer: true })[name];
                return { ...bullRedisOptions(redis, prefix), prefix };
              },
            })),
          ),
        ],
        providers: [...providers, { provide: QUEUE_MODE, useValue: 'redis' satisfies QueueMode }],
        exports: [...tokens, BullModule, QUEUE_MODE],
      };
    }
    const providers: Provider[] = ALL_QUEUES.map((name) => ({
      provide: jobQueueToken(name),
      useFactory: () => new SyncJobQueue(name),
    }));
    return {
      module: QueueModule,
      providers: [...providers, { provide: QUEUE_MODE, useValue: 'embedded' satisfies QueueMode }],
      exports: [...tokens, QUEUE_MODE],
    };
  }
}
