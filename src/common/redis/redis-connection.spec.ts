import Redis, { Cluster } from 'ioredis';
import type { RedisTarget } from '../../config/redis-target';
import { queueKeyPrefix } from '../../contracts/queues';
import { bullRedisOptions, connectRedis, sharedFailFastRedis } from './redis-connection';

const cluster: RedisTarget = {
  kind: 'cluster',
  nodes: [{ host: '127.0.0.1', port: 1 }],
  password: 'pw',
  tls: true,
};

describe(connectRedis.name, () => {
  it('gives a cluster the client-wide options and each node the rest, with password and TLS', () => {
    const redis = connectRedis(cluster, {
      lazyConnect: true,
      enableOfflineQueue: false,
      keyPrefix: 'p:',
      maxRetriesPerRequest: 1,
      connectTimeout: 500,
    }) as Cluster;
    expect(redis).toBeInstanceOf(Cluster);
    expect(redis.options).toMatchObject({ lazyConnect: true, enableOfflineQueue: false, keyPrefix: 'p:' });
    expect(redis.options.redisOptions).toMatchObject({
      password: 'pw',
      tls: {},
      maxRetriesPerRequest: 1,
      connectTimeout: 500,
    });
    expect(redis.options.redisOptions).not.toHaveProperty('keyPrefix');
    redis.disconnect();
  });

  it('connects to one server by its URL, REDIS_PASSWORD filling in for a URL without one', () => {
    const redis = connectRedis(
      { kind: 'node', url: 'redis://127.0.0.1:1/3', password: 'pw' },
      { lazyConnect: true },
    ) as Redis;
    expect(redis).toBeInstanceOf(Redis);
    expect(redis.options).toMatchObject({ db: 3, password: 'pw', port: 1 });
    redis.disconnect();
  });
});

describe(bullRedisOptions.name, () => {
  it('on a cluster, makes the clients Bull requires (no ready check or retry limit on the blocking ones)', () => {
    const { createClient, url } = bullRedisOptions(cluster);
    expect(url).toBeUndefined();
    for (const type of ['client', 'subscriber', 'bclient'] as const) {
      const client = createClient!(type, {}) as unknown as Cluster;
      expect(client).toBeInstanceOf(Cluster);
      if (type !== 'client') {
        expect(client.options.redisOptions).toMatchObject({
          enableReadyCheck: false,
          maxRetriesPerRequest: null,
        });
      }
      client.disconnect();
    }
  });

  it('on one server, keeps the URL (and the queues their shared prefix)', () => {
    expect(bullRedisOptions({ kind: 'node', url: 'redis://r:6379' }).url).toBe('redis://r:6379');
  });
});

describe(queueKeyPrefix.name, () => {
  it('is the hash tag of the queue on a cluster, the shared prefix on one server', () => {
    expect(queueKeyPrefix('tool-call', { cluster: true })).toBe('{tool-call}');
    expect(queueKeyPrefix('tool-call', { cluster: true, prefix: 'prod' })).toBe('{prod:tool-call}');
    expect(queueKeyPrefix('tool-call', { cluster: false })).toBe('bull');
    expect(queueKeyPrefix('tool-call', { cluster: false, prefix: 'prod' })).toBe('prod');
  });
});

describe(sharedFailFastRedis.name, () => {
  // Nothing listens on port 1: the connections only try, fail fast, and are closed here.
  const target: RedisTarget = { kind: 'node', url: 'redis://127.0.0.1:1' };
  const other: RedisTarget = { kind: 'node', url: 'redis://127.0.0.1:2' };

  it('gives every use of one target the same connection, and closes it with the last release', () => {
    const a = sharedFailFastRedis(target);
    const b = sharedFailFastRedis(target);
    const c = sharedFailFastRedis(other);
    expect(b.connection).toBe(a.connection);
    expect(c.connection).not.toBe(a.connection);
    const closed = jest.spyOn(a.connection, 'disconnect');
    a.release();
    a.release(); // a second release of one use changes nothing
    expect(closed).not.toHaveBeenCalled();
    b.release();
    expect(closed).toHaveBeenCalledTimes(1);
    c.release();
    // After the last release a new use opens a new connection.
    const d = sharedFailFastRedis(target);
    expect(d.connection).not.toBe(a.connection);
    d.release();
  });
});
