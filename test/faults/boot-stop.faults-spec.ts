import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, newQueuePrefix } from './support/harness';
import {
  ManagedProcess,
  PrivateMariaDb,
  PrivateRedis,
  freePort,
  waitUntil,
} from './support/services';

/**
 * Starting and stopping the real entry points (`src/main.ts`, `src/worker.ts` through ts-node, as
 * `npm start` and `npm run start:worker` run them): a process told to stop exits within
 * SHUTDOWN_GRACE_MS even with a request stuck on a hung database; a worker started while MySQL
 * is down starts (migrations left to the next process); a used port is one line naming it and PORT.
 */
describe('Boot and stop of the real processes (faults)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vac-faults-boot-'));
  const processes: ManagedProcess[] = [];
  let redis: PrivateRedis | undefined;
  let db: PrivateMariaDb | undefined;
  let counter = 0;

  /** One entry point as a child process, its stdout and stderr in a log file of its own. */
  function spawnEntry(entry: 'main' | 'worker', env: Record<string, string>) {
    counter += 1;
    const logFile = join(dir, `${entry}-${counter}.log`);
    const child = new ManagedProcess(
      `${entry}-${counter}`,
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', `src/${entry}.ts`],
      {
        cwd: ROOT,
        logFile,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
          TS_NODE_TRANSPILE_ONLY: 'true',
          ADMIN_API_KEY: process.env.ADMIN_API_KEY!,
          SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
          ...env,
        },
      },
    );
    processes.push(child);
    child.start();
    const output = () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    };
    return { child, output };
  }

  beforeAll(async () => {
    [redis, db] = await Promise.all([PrivateRedis.start(), PrivateMariaDb.start()]);
  });

  afterAll(async () => {
    for (const child of processes) await child.kill().catch(() => undefined);
    await redis?.dispose();
    await db?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits within SHUTDOWN_GRACE_MS when told to stop with a request stuck on a hung database', async () => {
    const port = await freePort();
    const api = spawnEntry('main', {
      PORT: String(port),
      DATABASE_URL: db!.url('vac_boot_stop'),
      REDIS_URL: redis!.url,
      QUEUE_PREFIX: newQueuePrefix(),
      SHUTDOWN_GRACE_MS: '2000',
    });
    await waitUntil('the API to listen', () => api.output().includes('API listening'), 150_000);
    const base = `http://127.0.0.1:${port}`;
    const created = await fetch(`${base}/auth/create-key`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${process.env.ADMIN_API_KEY}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ user_name: 'Stuck', user_email: 'stuck@example.com' }),
    });
    const key = ((await created.json()) as { data: { api_key: string } }).data.api_key;

    db!.freeze();
    try {
      // Answered 503 after REQUEST_TIMEOUT_MS, but its query stays on a connection that never frees.
      const stuck = fetch(`${base}/assistant/list`, {
        headers: { Authorization: `Bearer ${key}` },
      }).catch(() => undefined);
      // Give it a moment to reach the database (the stop below must find it in flight).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      api.child.stop(120_000).catch(() => undefined);
      await waitUntil('the API to exit', () => !api.child.running, 60_000);
      await stuck;
    } finally {
      db!.thaw();
    }
    expect(api.output()).toContain('Still stopping 2000 ms after SIGTERM (SHUTDOWN_GRACE_MS)');
  });

  it('starts a worker with default settings while MySQL is down, leaving migrations to the next process', async () => {
    await db!.stop();
    try {
      const worker = spawnEntry('worker', {
        DATABASE_URL: db!.url('vac_boot_outage'),
        REDIS_URL: redis!.url,
        QUEUE_PREFIX: newQueuePrefix(),
      });
      await waitUntil(
        'the worker to start or exit',
        () => worker.output().includes('Worker started') || !worker.child.running,
        150_000,
      );
      expect(worker.output()).toContain('Worker started');
      expect(worker.output()).toContain('migrations are left to the next process');
      await worker.child.stop(30_000);
    } finally {
      await db!.start();
    }
  });

  it('prints one line naming the port and PORT when the port is in use', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    try {
      const api = spawnEntry('main', {
        PORT: String(port),
        SQLITE_PATH: join(dir, 'port-in-use.sqlite'),
      });
      await waitUntil('the second API to exit', () => !api.child.running, 150_000);
      const lines = api.output().trim().split('\n');
      expect(lines.at(-1)).toBe(
        `Startup failed: port ${port} is already in use by another process: stop it, or set PORT to a free port`,
      );
      expect(api.output()).not.toMatch(/^\s+at /m);
    } finally {
      holder.close();
    }
  });
});
