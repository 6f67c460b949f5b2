/**
 * The built service (`node dist/main.js`) as the outside validators meet it: embedded mode on a
 * throw-away SQLite file, an operator key, customer URLs on localhost allowed (the context
 * endpoint the sequence uses runs in this process), its own process group so nothing outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../test/utils/free-port';

export const ROOT = resolve(__dirname, '../..');
export const ADMIN_KEY = 'contract-check-admin-key-0123456789abcdef';

export interface Started {
  base: string;
  stop: () => Promise<void>;
}

/** Starts a process in its own group and waits until `probe` answers; stop() ends the group. */
export async function startProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  probe: string,
  timeoutMs = 90_000,
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  let output = '';
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  process.once('exit', () => signal('SIGKILL'));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    signal('SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer ${probe} in ${timeoutMs} ms:\n${output}`);
    }
    const up = await fetch(probe).then(
      (res) => res.status < 500,
      () => false,
    );
    if (up) return { child, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `node dist/main.js` on a fresh SQLite file. */
export async function startBuiltService(): Promise<Started> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vac-contract-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    SQLITE_PATH: join(dir, 'service.sqlite'),
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  const base = `http://127.0.0.1:${port}`;
  const { stop } = await startProcess(
    'node dist/main.js',
    process.execPath,
    [join(ROOT, 'dist/main.js')],
    env,
    `${base}/health`,
  );
  return {
    base,
    stop: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A customer's context endpoint: answers every POST with a context. */
export async function startContextEndpoint(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ context: { customer_name: 'Asha', tier: 'gold' } }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/context`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
