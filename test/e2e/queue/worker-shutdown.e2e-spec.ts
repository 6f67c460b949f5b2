import { createServer, type Socket } from 'node:net';
import { getQueueToken } from '@nestjs/bull';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import Bull, { type Queue } from 'bull';
import { ALL_QUEUES } from '../../../src/contracts/queues';
import { settleDroppedPromises } from '../../../src/queue/bull-dropped-promises';
import { WorkerModule } from '../../../src/worker.module';
import { freePort } from '../../utils/free-port';

async function bootWorker(): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] }).compile();
  const worker = moduleRef.createNestApplication({ logger: false });
  await worker.init();
  return worker;
}

/** Runs `work` and returns the unhandled rejections seen meanwhile (and shortly after). */
async function unhandledDuring(work: () => Promise<void>): Promise<unknown[]> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  return rejections;
}

/** A server that accepts connections and never answers: a Redis that is there but never ready. */
async function silentServer(): Promise<{ url: string; close(): void }> {
  const port = await freePort();
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('a Bull worker closed before Redis was ever ready', () => {
  it("leaves no unhandled rejection when `process()`'s promise is dropped, as @nestjs/bull does, nor from a global event listener", async () => {
    const redis = await silentServer();
    try {
      const rejections = await unhandledDuring(async () => {
        const queue = new Bull('never-ready', redis.url);
        settleDroppedPromises(queue);
        void queue.process(() => Promise.resolve());
        // What a producer waiting for results listens to (BullJobQueue).
        void queue.on('global:completed', () => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await queue.close();
      });
      // This queue never gets a job (its Redis never answers), so a job's run timeout reaching the
      // process from a file Jest ran earlier in this worker is not this test's subject.
      const ownRejections = rejections.filter(
        (reason) => !/^Promise timed out after \d+ milliseconds$/.test((reason as Error)?.message),
      );
      expect(ownRejections).toEqual([]);
    } finally {
      redis.close();
    }
  });
});

/**
 * The connections labelled as `queue`'s worker. Bull's own `getWorkers()` matches names by prefix,
 * so it also counts the workers of a queue whose name extends this one's (`tool-call-cancel`'s
 * for `tool-call`): the label is compared whole here.
 */
async function labelledWorkers(queue: Queue): Promise<number> {
  const label = `name=${(queue as unknown as { clientName(): string }).clientName()}`;
  const clients = String(await queue.client.client('LIST'));
  return clients.split('\n').filter((line) => line.split(' ').includes(label)).length;
}

/** Bull labels each worker's blocking connection from `queue.process()`; see bull-dropped-promises.ts. */
(process.env.REDIS_URL ? describe : describe.skip)('worker connection label', () => {
  it('a worker closed right after it started leaves no unhandled rejection (Node would exit on it)', async () => {
    const rejections = await unhandledDuring(async () => {
      for (let i = 0; i < 10; i++) await (await bootWorker()).close();
    });
    expect(rejections).toEqual([]);
  });

  it('is still set on every queue of a worker that keeps running', async () => {
    const worker = await bootWorker();
    try {
      for (const name of ALL_QUEUES) {
        const queue = worker.get<Queue>(getQueueToken(name), { strict: false });
        let workers = 0;
        for (let i = 0; i < 50 && workers === 0; i++) {
          workers = await labelledWorkers(queue);
          if (workers === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect({ name, workers }).toEqual({ name, workers: 1 });
      }
    } finally {
      await worker.close();
    }
  });
});
