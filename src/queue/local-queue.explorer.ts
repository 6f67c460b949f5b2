import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { jobQueueToken, type QueueJob } from './job-queue';
import { JOB_PROCESSOR_QUEUE } from './job-processor.decorator';
import type { LocalJobQueue } from './local-job-queue';
import { ALL_QUEUES, type QueueName } from './queue.constants';

interface ProcessorInstance {
  handle(job: QueueJob<unknown>): Promise<unknown>;
}

/** Embedded mode: hands each in-process queue to the `@JobProcessor` class registered for it. */
@Injectable()
export class LocalQueueExplorer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LocalQueueExplorer.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const metatype = wrapper.metatype;
      const instance: unknown = wrapper.instance;
      if (!metatype || !instance) continue;
      const queueName = Reflect.getMetadata(JOB_PROCESSOR_QUEUE, metatype) as QueueName | undefined;
      if (!queueName) continue;
      const processor = instance as ProcessorInstance;
      this.queue(queueName).attach((job) => processor.handle(job));
      this.logger.debug(`${metatype.name} processes ${queueName} in-process`);
    }
  }

  onApplicationShutdown(): void {
    for (const name of ALL_QUEUES) this.queue(name).close();
  }

  private queue(name: QueueName): LocalJobQueue {
    return this.moduleRef.get<LocalJobQueue>(jobQueueToken(name), { strict: false });
  }
}
