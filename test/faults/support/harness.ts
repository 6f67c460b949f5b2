import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { logsApi } from '../../api/logs-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';
import { ManagedProcess, PrivateMariaDb, PrivateRedis, waitUntil } from './services';

export const ROOT = resolve(__dirname, '../../..');

/** What every process of a fault scenario shares: the private services and one Bull prefix. */
export interface Backends {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
}

export const newQueuePrefix = () =>
  `vac-faults-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`;

/** The API in this process against the private services (migrations run at boot). */
export function bootApi(
  backends: Backends,
  role: 'all' | 'api',
  env: Record<string, string | undefined> = {},
): Promise<TestContext> {
  return createTestApp({
    role,
    env: {
      DATABASE_URL: backends.databaseUrl,
      REDIS_URL: backends.redisUrl,
      QUEUE_PREFIX: backends.queuePrefix,
      DB_MIGRATIONS_RUN: 'true',
      APP_ROLE: role,
      ...env,
    },
  });
}

/**
 * `src/worker.ts` as a child process, exactly as production runs it (through ts-node), so it can
 * be SIGKILLed. Its output goes to a log file, which `start()` watches for the ready line.
 */
export class WorkerProcess {
  private readonly process: ManagedProcess;
  readonly logFile: string;

  constructor(
    readonly label: string,
    backends: Backends,
    env: Record<string, string> = {},
    private readonly dir = mkdtempSync(join(tmpdir(), 'vac-faults-worker-')),
  ) {
    this.logFile = join(dir, `${label}.log`);
    this.process = new ManagedProcess(
      label,
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/worker.ts'],
      {
        cwd: ROOT,
        logFile: this.logFile,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATABASE_URL: backends.databaseUrl,
          REDIS_URL: backends.redisUrl,
          QUEUE_PREFIX: backends.queuePrefix,
          DB_MIGRATIONS_RUN: 'false',
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          TS_NODE_TRANSPILE_ONLY: 'true',
          // The API's key (support/env.ts): a worker on MySQL refuses to start without one.
          SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
          ...env,
        },
      },
    );
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the worker and waits for its "Worker started" line; returns ms taken. */
  async start(timeoutMs = 90_000): Promise<number> {
    const started = Date.now();
    this.process.start();
    await waitUntil(
      `${this.label} to log "Worker started"`,
      () => {
        if (!this.process.running)
          throw new Error(`${this.label} exited during boot:\n${this.output().slice(-3000)}`);
        return this.output().includes('Worker started');
      },
      timeoutMs,
      100,
    );
    return Date.now() - started;
  }

  output(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  kill(): Promise<void> {
    return this.process.kill();
  }

  stop(): Promise<void> {
    return this.process.stop(10_000);
  }

  async dispose(): Promise<void> {
    await this.process.kill().catch(() => undefined);
  }

  /** Deletes the worker's log directory (after `dispose()`). */
  removeLogs(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function createAssistant(
  ctx: TestContext,
  user: TestUser,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return (await assistantApi(ctx, user).create(assistantBody(extra))).assistant_id;
}

/** An assistant, a webhook strategy on `server.url(path)` and a mapping on a fresh number. */
export async function createLookupSetup(
  ctx: TestContext,
  user: TestUser,
  server: CustomerServer,
  path: string,
  strategyConfig: Record<string, unknown> = {},
): Promise<{ assistantId: string; strategyId: string; inboundId: string; phone: string }> {
  const assistantId = await createAssistant(ctx, user);
  const { strategy, inboundId, phone } = await routeNumber(
    ctx,
    user,
    assistantId,
    strategyBody(server.url(path), strategyConfig, { strategy_name: `strategy ${path}` }),
  );
  return { assistantId, strategyId: strategy.strategy_id, inboundId, phone };
}

/** Every entry of `user` of `logType` (all pages). */
export async function allLogs(
  ctx: TestContext,
  user: TestUser,
  query: Record<string, string>,
): Promise<LogEntryDto[]> {
  const out: LogEntryDto[] = [];
  for (let page = 1; page <= 100; page++) {
    const { logs } = await logsApi(ctx, user).page({ limit: 100, page, ...query });
    out.push(...logs);
    if (logs.length < 100) break;
  }
  return out;
}

/** Runs `fn`, returns its settled outcome and how long it took. */
export async function timed<T>(
  fn: () => Promise<T>,
): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = Date.now();
  try {
    const value = await fn();
    return { ms: Date.now() - started, value };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

/** Measurements a scenario prints at the end (copied into test/faults/README.md). */
export function report(scenario: string, figures: Record<string, unknown>): void {
  process.stdout.write(`\n[faults] ${scenario}: ${JSON.stringify(figures)}\n`);
}

/** A private Redis, a private MariaDB and a customer endpoint, started together for one scenario file. */
export interface PrivateStack {
  redis: PrivateRedis;
  db: PrivateMariaDb;
  server: CustomerServer;
  backends: Backends;
  /** Stops all three; safe to call after a failed start or a failed test. */
  dispose(): Promise<void>;
}

export async function startPrivateStack(): Promise<PrivateStack> {
  const [redis, db, server] = await Promise.all([
    PrivateRedis.start(),
    PrivateMariaDb.start(),
    startCustomerServer(),
  ]);
  return {
    redis,
    db,
    server,
    backends: { databaseUrl: db.url(), redisUrl: redis.url, queuePrefix: newQueuePrefix() },
    async dispose() {
      await server.close().catch(() => undefined);
      await redis.dispose();
      await db.dispose();
    },
  };
}

/** A scenario file's private stack with the API booted on it and a user of that API. */
export interface Scenario extends PrivateStack {
  ctx: TestContext;
  user: TestUser;
}

/**
 * A scenario file's start: its private stack (`respond` sets up the customer server), the API in
 * this process as `role` with `env`, and a user. What a failed start started, it stops again.
 */
export async function startScenario(
  role: 'all' | 'api',
  env: Record<string, string | undefined> = {},
  respond: (server: CustomerServer) => void = () => undefined,
): Promise<Scenario> {
  const stack = await startPrivateStack();
  let ctx: TestContext | undefined;
  try {
    respond(stack.server);
    ctx = await bootApi(stack.backends, role, env);
    return { ...stack, ctx, user: await ctx.newUser() };
  } catch (error) {
    await ctx?.close().catch(() => undefined);
    await stack.dispose();
    throw error;
  }
}

/** A scenario file's end: prints its figures, closes its API and stops its private stack. */
export async function endScenario(
  name: string,
  figures: Record<string, unknown>,
  scenario: Scenario | undefined,
): Promise<void> {
  report(name, figures);
  await scenario?.ctx.close().catch(() => undefined);
  await scenario?.dispose();
}
