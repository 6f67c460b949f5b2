import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { ALL_QUEUES, type QueueName } from '../contracts/queues';
import { JOB_PROCESSOR_QUEUE, type JobHandler } from './job-processor.decorator';
import { jobQueueToken, type JobQueue } from './job-queue';
import { SyncJobQueue } from './sync-job-queue';

/**
 * Where this process consumes jobs: finds the `@JobProcessor` class of every queue and fails the
 * boot when a queue has none, or more than one, so a queue cannot sit unserved. On Redis,
 * `@nestjs/bull` hands the same classes to Bull; in embedded mode this hands each in-process
 * queue its handler.
 */
@Injectable()
export class JobHandlers implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobHandlers.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const handlers = new Map<QueueName, string[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const { metatype } = wrapper;
      const instance = wrapper.instance as JobHandler<unknown, unknown> | undefined;
      if (!metatype || !instance) continue;
      const name = Reflect.getMetadata(JOB_PROCESSOR_QUEUE, metatype) as QueueName | undefined;
      if (!name) continue;
      handlers.set(name, [...(handlers.get(name) ?? []), metatype.name]);
      const queue = this.queue(name);
      if (queue instanceof SyncJobQueue) {
        queue.attach((job) => instance.handle(job));
        this.logger.debug(`${metatype.name} handles ${name} in-process`);
      }
    }
    const problems = ALL_QUEUES.flatMap((name) => {
      const classes = handlers.get(name) ?? [];
      if (classes.length === 0) return [`${name} has no handler`];
      if (classes.length > 1)
        return [`${name} has ${classes.length} handlers (${classes.join(', ')})`];
      return [];
    });
    if (problems.length)
      throw new Error(
        `Every queue needs exactly one @JobProcessor class, registered by the module that owns its job: ${problems.join('; ')}`,
      );
  }

  onApplicationShutdown(): void {
    for (const name of ALL_QUEUES) {
      const queue = this.queue(name);
      if (queue instanceof SyncJobQueue) queue.close();
    }
  }

  private queue(name: QueueName): JobQueue {
    return this.moduleRef.get<JobQueue>(jobQueueToken(name), { strict: false });
  }
}
