import { getQueueToken } from '@nestjs/bull';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Queue } from 'bull';
import { ALL_QUEUES } from '../src/contracts/queues';
import { WorkerModule } from '../src/worker.module';

async function bootWorker(): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] }).compile();
  const worker = moduleRef.createNestApplication({ logger: false });
  await worker.init();
  return worker;
}

/** Bull labels each worker's blocking connection from `queue.process()`; see bull-worker-name.ts. */
(process.env.REDIS_URL ? describe : describe.skip)('worker connection label', () => {
  it('a worker closed right after it started leaves no unhandled rejection (Node would exit on it)', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      for (let i = 0; i < 10; i++) await (await bootWorker()).close();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  });

  it('is still set on every queue of a worker that keeps running', async () => {
    const worker = await bootWorker();
    try {
      for (const name of ALL_QUEUES) {
        const queue = worker.get<Queue>(getQueueToken(name), { strict: false });
        let workers: unknown[] = [];
        for (let i = 0; i < 50 && workers.length === 0; i++) {
          workers = await queue.getWorkers();
          if (workers.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect({ name, workers: workers.length }).toEqual({ name, workers: 1 });
      }
    } finally {
      await worker.close();
    }
  });
});
