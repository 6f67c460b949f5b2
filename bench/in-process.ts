/** The admin key every bench starts the service with (benches only: never a deployment's). */
export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

export interface InProcessBench {
  /** `mysql-redis`, `sqlite-embedded`, ...: what the run used, for its report. */
  mode: string;
  redisUrl: string | undefined;
  /** The SQLite file's folder when no DATABASE_URL is given; remove it after the run. */
  sqliteDir: string;
}

/**
 * The environment of a bench that creates the service's Nest application in its own process:
 * production mode, silent logs, no rate limit, a queue prefix of its own, and (without
 * DATABASE_URL) an SQLite file of its own under `./data/bench-<name>-<pid>`. Call it before the
 * application module is registered: the service reads these when it starts.
 */
export function inProcessBenchEnv(name: string, extra: NodeJS.ProcessEnv = {}): InProcessBench {
  const redisUrl = process.env.REDIS_URL;
  process.env.NODE_ENV ??= 'production';
  process.env.LOG_LEVEL = 'silent';
  process.env.ADMIN_API_KEY = BENCH_ADMIN_KEY;
  process.env.RATE_LIMIT_PER_MINUTE = '0';
  process.env.QUEUE_PREFIX = `vac-bench-${Date.now()}`;
  // Required with MySQL (the secret store's key); a worker started by the bench inherits it.
  process.env.SECRETS_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString('base64');
  Object.assign(process.env, extra);
  const sqliteDir = `./data/bench-${name}-${process.pid}`;
  if (!process.env.DATABASE_URL) process.env.SQLITE_PATH = `${sqliteDir}/bench.sqlite`;
  const mode = `${process.env.DATABASE_URL ? 'mysql' : 'sqlite'}-${redisUrl ? 'redis' : 'embedded'}`;
  return { mode, redisUrl, sqliteDir };
}
