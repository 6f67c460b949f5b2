import { randomUUID } from 'node:crypto';
import {
  EndpointHealthStore,
  LocalEndpointHealth,
  MIN_ATTEMPTS,
  RedisEndpointHealth,
} from '../../../src/event-subscription/endpoint-health';
import { scriptCommandsFor, testRedis } from '../../utils/test-redis';

/** The two stores of an endpoint's health agree: in memory (embedded) and the Redis script. */
type Store = EndpointHealthStore & { onModuleDestroy?: () => void };
const stores: Array<[string, () => Store]> = [['in memory', () => new LocalEndpointHealth()]];
if (testRedis)
  stores.push(['on Redis', () => new RedisEndpointHealth(testRedis!, `vac-test-${randomUUID()}`)]);

describe.each(stores)('EndpointHealthStore %s', (_name, make) => {
  let store: ReturnType<typeof make>;
  beforeEach(async () => {
    store = make();
    // The Redis store never waits for its connection (an attempt it cannot record is dropped):
    // wait here until it records one.
    while ((await store.observe('warm-up', 'https://warm-up.example.com', false)).attempts === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
  });
  afterEach(() => store.onModuleDestroy?.());

  const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute, 30));
  const observe = (failed: boolean, minute = 0, user = 'u1', origin = 'https://a.example.com') =>
    store.observe(user, origin, failed, at(minute));

  it('changes state once when failures pass half of at least 10 attempts, once when back', async () => {
    for (let i = 1; i < MIN_ATTEMPTS; i++) expect((await observe(true)).change).toBeNull();
    expect(await observe(true)).toEqual({
      attempts: 10,
      errors: 10,
      change: { state: 'unhealthy', seq: 1 },
    });
    expect((await observe(true)).change).toBeNull();
    // Another origin, and another owner's same origin, are counted apart.
    expect(await observe(true, 0, 'u1', 'https://b.example.com')).toMatchObject({ attempts: 1 });
    expect(await observe(true, 0, 'u2')).toMatchObject({ attempts: 1 });
    const changes = [];
    for (let i = 0; i < 11; i++) changes.push((await observe(false, 1)).change);
    expect(changes.filter(Boolean)).toEqual([{ state: 'healthy', seq: 2 }]);
    expect(changes[10]).toEqual({ state: 'healthy', seq: 2 });
  });

  it('counts the last 5 minutes only', async () => {
    for (let i = 0; i < 9; i++) await observe(true, 0);
    // Minute 5: the failures of minute 0 have left the window.
    expect(await observe(true, 5)).toEqual({ attempts: 1, errors: 1, change: null });
    for (let i = 0; i < 8; i++) await observe(true, 6);
    expect((await observe(true, 9)).change).toEqual({ state: 'unhealthy', seq: 1 });
  });
});

(testRedis ? it : it.skip)(
  'RedisEndpointHealth sends its script by SHA: its text at most once, also after Redis forgot it',
  async () => {
    const prefix = `vac-test-${randomUUID()}`;
    const store = new RedisEndpointHealth(testRedis!, prefix);
    const observed: number[] = [];
    try {
      const sent = await scriptCommandsFor(
        `${prefix}:endpoint-health:{u1:https://a.example.com}`,
        async () => {
          for (let i = 0; i < 4; i++)
            observed.push((await store.observe('u1', 'https://a.example.com', true)).attempts);
        },
      );
      expect(observed).toEqual([1, 2, 3, 4]);
      expect(sent.filter((name) => name === 'eval').length).toBeLessThanOrEqual(1);
      expect(sent.filter((name) => name === 'evalsha').length).toBeGreaterThanOrEqual(3);
    } finally {
      store.onModuleDestroy();
    }
  },
);
