import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../utils/free-port';

/**
 * Private Redis and MariaDB servers for fault injection, each a child process of the test on its
 * own free port under its own temporary directory, so the shared services on 3306/6379 are never
 * touched. Every wait is bounded; `dispose()` kills and removes everything and never throws.
 */

export { freePort };

const HOST = '127.0.0.1';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when something accepts TCP connections on `port`. */
export function isListening(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, HOST, () => done(true));
  });
}

/** Polls `probe` every `intervalMs` until it returns true, or throws after `timeoutMs` with `what`. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await Promise.resolve(probe()).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** A long-running child process with bounded stop/kill and its output in a log file. */
export class ManagedProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private log?: WriteStream;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly options: { env?: NodeJS.ProcessEnv; cwd?: string; logFile: string },
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.log = createWriteStream(this.options.logFile, { flags: 'a' });
    const child = spawn(this.command, this.args, {
      cwd: this.options.cwd,
      env: this.options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    this.child = child;
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    const stopped = await Promise.race([
      this.exited!.then(() => true),
      sleep(graceMs).then(() => false),
    ]);
    if (!stopped) await this.kill();
  }

  /** SIGKILL: the process gets no chance to clean up (a crash, an OOM kill). */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await Promise.race([this.exited!, sleep(5000)]);
  }

  /** SIGSTOP / SIGCONT: the process keeps its sockets open but answers nothing (a hung host). */
  freeze(): void {
    if (this.running) this.child!.kill('SIGSTOP');
  }

  thaw(): void {
    if (this.running) this.child!.kill('SIGCONT');
  }

  /** Resolves when the process exits by itself; for boot failures. */
  whenExited(): Promise<void> {
    return this.exited ?? Promise.resolve();
  }
}

/** `redis-server` without persistence on a private port. */
export class PrivateRedis {
  private readonly process: ManagedProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {
    this.process = new ManagedProcess(
      'redis',
      'redis-server',
      ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir],
      { logFile: join(dir, 'redis.log') },
    );
  }

  static async start(): Promise<PrivateRedis> {
    const dir = mkdtempSync(join(tmpdir(), 'vac-faults-redis-'));
    const redis = new PrivateRedis(await freePort(), dir);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://${HOST}:${this.port}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts (or restarts) the server on the same port; resolves once it answers. Returns ms taken. */
  async start(): Promise<number> {
    const started = Date.now();
    this.process.start();
    await waitUntil(`redis on ${this.port}`, () => isListening(this.port), 10_000, 50);
    return Date.now() - started;
  }

  async stop(): Promise<void> {
    await this.process.stop(5000);
    await waitUntil(
      `redis on ${this.port} to stop`,
      async () => !(await isListening(this.port)),
      5000,
      50,
    );
  }

  async kill(): Promise<void> {
    await this.process.kill();
  }

  freeze(): void {
    this.process.freeze();
  }

  thaw(): void {
    this.process.thaw();
  }

  async dispose(): Promise<void> {
    this.process.thaw();
    await this.process.kill().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** How a private MariaDB takes part in replication: its server id, and a binary log on a primary. */
export interface MariaDbRole {
  serverId?: number;
  logBin?: boolean;
}

/** A throwaway MariaDB server (root, empty password, TCP on 127.0.0.1 only). */
export class PrivateMariaDb {
  private readonly process: ManagedProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
    role: MariaDbRole = {},
  ) {
    const datadir = join(dir, 'data');
    this.process = new ManagedProcess(
      'mariadb',
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${datadir}`,
        `--port=${port}`,
        `--bind-address=${HOST}`,
        `--socket=${join(dir, 'mysqld.sock')}`,
        `--pid-file=${join(dir, 'mysqld.pid')}`,
        '--user=root',
        ...(role.logBin
          ? [`--log-bin=${join(dir, 'data', 'mysql-bin')}`, '--binlog-format=ROW']
          : ['--skip-log-bin']),
        `--server-id=${role.serverId ?? 1}`,
        '--skip-name-resolve',
        '--innodb-buffer-pool-size=64M',
        '--max-connections=300',
      ],
      { logFile: join(dir, 'mariadb.log') },
    );
  }

  /** Initialises a fresh data directory and starts the server; creates `database` (null: none). */
  static async start(
    database: string | null = 'vac_faults',
    role: MariaDbRole = {},
  ): Promise<PrivateMariaDb> {
    const dir = mkdtempSync(join(tmpdir(), 'vac-faults-mariadb-'));
    mkdirSync(join(dir, 'data'));
    const install = spawnSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${join(dir, 'data')}`,
        '--auth-root-authentication-method=normal',
        '--user=root',
        '--skip-test-db',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (install.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `mariadb-install-db failed (${install.status}): ${install.stderr || install.stdout}`,
      );
    }
    const db = new PrivateMariaDb(await freePort(), dir, role);
    try {
      await db.start();
      if (database)
        await db.query(
          `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
        );
    } catch (error) {
      await db.dispose();
      throw error;
    }
    return db;
  }

  url(database = 'vac_faults'): string {
    return `mysql://root@${HOST}:${this.port}/${database}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts (or restarts) the server on the same port and data; resolves once it accepts queries. Returns ms taken. */
  async start(): Promise<number> {
    const started = Date.now();
    this.process.start();
    await waitUntil(
      `mariadb on ${this.port}`,
      async () => {
        if (!this.process.running) throw new Error('mariadbd exited');
        await this.query('SELECT 1');
        return true;
      },
      60_000,
      100,
    );
    return Date.now() - started;
  }

  /** Clean shutdown (SIGTERM, as `systemctl stop` does). */
  async stop(): Promise<void> {
    await this.process.stop(30_000);
  }

  /** Hang: SIGSTOP keeps the port open and answers nothing; `thaw()` resumes. */
  freeze(): void {
    this.process.freeze();
  }

  thaw(): void {
    this.process.thaw();
  }

  /** Crash: SIGKILL, InnoDB recovers on the next start. */
  async kill(): Promise<void> {
    await this.process.kill();
  }

  /** One query through the `mariadb` client; throws with its stderr on failure. */
  query(sql: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const child = spawn(
        'mariadb',
        [
          '--no-defaults',
          '-h',
          HOST,
          '-P',
          String(this.port),
          '-u',
          'root',
          '-N',
          '-B',
          '--connect-timeout=2',
          '-e',
          sql,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`mariadb client exited ${code}: ${err.trim()}`));
      });
    });
  }

  async dispose(): Promise<void> {
    this.process.thaw();
    await this.process.kill().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
