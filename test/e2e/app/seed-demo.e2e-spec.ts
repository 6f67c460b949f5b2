import { type AddressInfo } from 'node:net';
import { DEMO_NUMBER, parseSeedArgs, seedDemo, USAGE } from '../../../scripts/seed-demo';
import { createTestApp, type TestContext } from '../../utils/create-test-app';
import { freePort } from '../../utils/free-port';

/**
 * `npm run seed:demo` against the running service: its `--help`, the lookup command it prints on
 * the Redis the service really uses, and a stop with the message at the first failure.
 */
describe('seed:demo', () => {
  let ctx: TestContext;
  let url: string;
  const adminKey = process.env.ADMIN_API_KEY!;

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => ctx.close());

  it('--help prints the usage, needing no key', () => {
    expect(parseSeedArgs(['--help'], {})).toEqual({ help: USAGE });
    expect(parseSeedArgs(['-h'], {})).toEqual({ help: USAGE });
    expect(USAGE).toMatch(/--url[\s\S]*--context-url[\s\S]*--admin-key[\s\S]*--redis-url/);
    expect(() => parseSeedArgs([], {})).toThrow(/ADMIN_API_KEY/);
  });

  it('the lookup command names the Redis given (REDIS_URL, --redis-url), not a fixed one', async () => {
    const fromEnv = parseSeedArgs(['--url', url], {
      ADMIN_API_KEY: adminKey,
      REDIS_URL: 'redis://queues.internal:6390',
      QUEUE_PREFIX: 'acme',
    });
    if (!('options' in fromEnv)) throw new Error('expected options');
    expect(fromEnv.options).toMatchObject({
      url,
      redisUrl: 'redis://queues.internal:6390',
      queuePrefix: 'acme',
    });
    const out = await seedDemo(fromEnv.options);
    expect(out).toContain(
      `REDIS_URL=redis://queues.internal:6390 QUEUE_PREFIX=acme npx ts-node --transpile-only examples/lookup-client.ts --inbound-number "${DEMO_NUMBER}"`,
    );
    expect(out).not.toContain('127.0.0.1:6379');

    const flag = parseSeedArgs(['--url', url, '--redis-url', 'redis://other:7000'], {
      ADMIN_API_KEY: adminKey,
      REDIS_URL: 'redis://queues.internal:6390',
    });
    if (!('options' in flag)) throw new Error('expected options');
    expect(await seedDemo(flag.options)).toContain('REDIS_URL=redis://other:7000 npx');
  });

  it('without a Redis URL, asks the service whether it has one', async () => {
    const out = await seedDemo({ url, adminKey, contextUrl: 'http://127.0.0.1:4010/context' });
    expect(out).not.toContain('127.0.0.1:6379');
    if (process.env.REDIS_URL) expect(out).toContain("REDIS_URL=<the service's REDIS_URL>");
    else expect(out).toContain('the service runs jobs in-process (no REDIS_URL)');
  });

  it('stops at the first failing request with its route, status and message', async () => {
    const contextUrl = 'http://127.0.0.1:4010/context';
    await expect(
      seedDemo({ url, adminKey: 'not-the-operator-key-0123456789', contextUrl }),
    ).rejects.toThrow(/^POST \/auth\/create-key: 401 /);
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(seedDemo({ url: closed, adminKey, contextUrl })).rejects.toThrow(
      `cannot reach the service at ${closed} (ECONNREFUSED): start it, or pass --url`,
    );
  });
});
