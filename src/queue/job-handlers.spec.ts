import type { Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { ALL_QUEUES, QUEUES, type QueueName } from '../contracts/queues';
import { JobHandlers } from './job-handlers';
import { JobProcessor } from './job-processor.decorator';
import { jobQueueToken, type JobQueue, type QueueJob } from './job-queue';
import { QueueModule } from './queue.module';

function handlerOf(queue: QueueName): Type<unknown> {
  @JobProcessor(queue)
  class Handler {
    handle(job: QueueJob<unknown>): Promise<string> {
      return Promise.resolve(`${queue} ran ${JSON.stringify(job.data)}`);
    }
  }
  return Handler;
}

/** An embedded-mode process that consumes jobs, with these handler classes registered. */
async function boot(handlers: Type<unknown>[]): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [QueueModule.forRoot(null), DiscoveryModule],
    providers: [JobHandlers, ...handlers],
  }).compile();
  return moduleRef.init();
}

describe(JobHandlers.name, () => {
  it('hands each in-process queue its handler when every queue has one', async () => {
    const app = await boot(ALL_QUEUES.map(handlerOf));
    const queue = app.get<JobQueue>(jobQueueToken(QUEUES.TOOL_CALL));
    await expect(queue.request({ n: 1 }, { waitMs: 1000 })).resolves.toBe('tool-call ran {"n":1}');
    await app.close();
  });

  it('fails the boot, naming the queue, when a queue has no handler', async () => {
    const handlers = ALL_QUEUES.filter((name) => name !== QUEUES.MAINTENANCE).map(handlerOf);
    await expect(boot(handlers)).rejects.toThrow(/maintenance has no handler/);
  });

  it('fails the boot when a queue has two handlers', async () => {
    const handlers = [...ALL_QUEUES.map(handlerOf), handlerOf(QUEUES.TOOL_CALL)];
    await expect(boot(handlers)).rejects.toThrow(/tool-call has 2 handlers/);
  });
});
