import type { LoggerService } from '@nestjs/common';
import { describeRedis } from '../config/redis-target';
import type { AppConfig } from '../config/app-config';

/** Nest's own start-up chatter: one line per module, route and controller. */
const BOOT_CONTEXTS = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
]);

/**
 * The application logger with Nest's per-module start-up lines moved to `debug`, so a start
 * prints the service's own summary line instead of ~80 lines. Warnings and errors pass as they are.
 */
export class BootQuietLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (BOOT_CONTEXTS.has(String(rest[rest.length - 1]))) this.inner.debug?.(message, ...rest);
    else this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...rest);
  }
}

/** A connection URL for a log line: the password replaced, nothing else changed. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The one line a process prints once it is up: what it is and what it talks to. */
export function startupSummary(config: AppConfig, what: string): string {
  const { database: db, queue } = config;
  const database = db.url ? `MySQL ${withoutPassword(db.url)}` : `SQLite ${db.sqlitePath}`;
  const jobs = !queue.redis
    ? 'jobs in-process'
    : queue.redis.kind === 'node'
      ? `Bull on Redis ${withoutPassword(queue.redis.url)} (prefix ${queue.prefix})`
      : `Bull on Redis ${describeRedis(queue.redis)} (prefixes ${[...new Set(Object.values(queue.queuePrefixes))].join(' ')})`;
  return `${what}; database: ${database}; queues: ${jobs}`;
}
