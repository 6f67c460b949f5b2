/**
 * Where a queue's subscriber connection goes. Bull publishes a queue's events (a job's completion,
 * the result the call stack waits for) from scripts that run on the node holding the queue's
 * slot; on Redis Cluster 7.0 a message forwarded over the cluster bus to another node arrives
 * about 10 ms late under a steady stream. So a producer's subscriber connects to the master of
 * its queue's slot. On one server, the same client, which finds no cluster there, connects to the
 * node it was given.
 */
import type { Socket } from 'node:net';
import { getQueueToken } from '@nestjs/bull';
import { ConfigService } from '@nestjs/config';
import type Bull from 'bull';
import type { Cluster } from 'ioredis';
import { slotNodeClient } from '../../../src/common/redis/slot-node-connector';
import { ALL_QUEUES, queueKeyPrefix } from '../../../src/contracts/queues';
import { openProducerQueue } from '../../../src/queue/producer-queue';
import { createTestApp } from '../../utils/create-test-app';
import { onCluster, testRedis, testRedisConnection } from '../../utils/test-redis';

const redisUrl = process.env.REDIS_URL;

/** `host:port` the client's socket is connected to, once it is ready. */
async function peer(client: {
  status: string;
  once: (e: string, f: () => void) => unknown;
  stream: unknown;
}) {
  if (client.status !== 'ready')
    await new Promise<void>((resolve) => client.once('ready', resolve));
  const stream = client.stream as Socket;
  return `${stream.remoteAddress}:${stream.remotePort}`;
}

(onCluster ? describe : describe.skip)('Queue subscribers on a Redis Cluster (e2e)', () => {
  let cluster: Cluster;
  beforeAll(() => {
    cluster = testRedisConnection() as Cluster;
  });
  afterAll(() => cluster.disconnect());

  /** `host:port` of the master serving `key`'s slot, as the cluster says. */
  async function masterOf(key: string): Promise<string> {
    const slot = Number(await cluster.call('CLUSTER', 'KEYSLOT', key));
    const ranges = (await cluster.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    const [, , [host, port]] = ranges.find(([first, last]) => slot >= first && slot <= last)!;
    return `${host}:${port}`;
  }

  it("each queue's subscriber is connected to the master of the queue's slot", async () => {
    const prefix = process.env.QUEUE_PREFIX;
    const queues = ALL_QUEUES.map((name) => openProducerQueue(name, testRedis!, prefix));
    try {
      for (const [index, name] of ALL_QUEUES.entries()) {
        const keyPrefix = queueKeyPrefix(name, { cluster: true, prefix });
        const subscriber = (
          queues[index].queue as Bull.Queue & { eclient: Parameters<typeof peer>[0] }
        ).eclient;
        expect({ name, node: await peer(subscriber) }).toEqual({
          name,
          node: await masterOf(keyPrefix),
        });
      }
    } finally {
      await Promise.all(queues.map(({ close }) => close()));
    }
  });

  it("the service's own queues subscribe on the master of each queue's slot too", async () => {
    const ctx = await createTestApp();
    try {
      const prefixes = ctx.app
        .get(ConfigService)
        .get<Record<string, string>>('queue.queuePrefixes')!;
      for (const name of ALL_QUEUES) {
        const queue = ctx.app.get<Bull.Queue>(getQueueToken(name), { strict: false });
        const subscriber = (queue as Bull.Queue & { eclient: Parameters<typeof peer>[0] }).eclient;
        expect({ name, node: await peer(subscriber) }).toEqual({
          name,
          node: await masterOf(prefixes[name]),
        });
      }
    } finally {
      await ctx.close();
    }
  });
});

(redisUrl && !onCluster ? describe : describe.skip)(
  'A slot-node client on one Redis server (e2e)',
  () => {
    it('connects to the node it was given when no node answers CLUSTER SLOTS, and subscribes there', async () => {
      const url = new URL(redisUrl!);
      const node = { host: url.hostname, port: Number(url.port || 6379) };
      const subscriber = slotNodeClient(
        { nodes: [{ host: '127.0.0.1', port: 1 }, node], key: '{vac-slot-test}' },
        {
          maxRetriesPerRequest: null,
          enableReadyCheck: false,
          ...(url.password ? { password: url.password } : {}),
        },
      );
      const publisher = slotNodeClient({ nodes: [node], key: '{vac-slot-test}' });
      try {
        expect(await peer(subscriber)).toMatch(new RegExp(`:${node.port}$`));
        const id = await subscriber.call('CLIENT', 'ID');
        const heard = new Promise<string>((resolve) =>
          subscriber.once('message', (_, message: string) => resolve(message)),
        );
        await subscriber.subscribe('vac-slot-test');
        await publisher.publish('vac-slot-test', 'hello');
        await expect(heard).resolves.toBe('hello');

        // A dropped connection is made again through the connector, subscriptions and all.
        const reconnected = new Promise<void>((resolve) => subscriber.once('ready', resolve));
        await publisher.call('CLIENT', 'KILL', 'ID', String(id));
        await reconnected;
        const again = new Promise<string>((resolve) =>
          subscriber.once('message', (_, message: string) => resolve(message)),
        );
        // The resubscription is sent right after 'ready': publish until it is heard.
        const timer = setInterval(() => void publisher.publish('vac-slot-test', 'again'), 50);
        try {
          await expect(again).resolves.toBe('again');
        } finally {
          clearInterval(timer);
        }
      } finally {
        subscriber.disconnect();
        publisher.disconnect();
      }
    });
  },
);
