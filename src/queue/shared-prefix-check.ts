import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import Redis from 'ioredis';
import { loggableError } from '../common/errors/loggable-error';
import { withTimeout } from '../common/time/with-timeout';
import type { AppConfig } from '../config/app-config';
import { ALL_QUEUES } from '../contracts/queues';

/** The whole check gives up after this long. It runs beside the start (never awaited by it), so a
 * slow answer under load costs nothing; a short limit only made it give up before it could warn. */
const CHECK_TIMEOUT_MS = 10_000;
/** Keys a SCAN call examines, and SCAN calls per queue and database: at most 10,000 keys each. */
const SCAN_COUNT = 1000;
const MAX_SCANS = 10;

/** The databases `INFO keyspace` lists (those holding keys): `db14:keys=12,expires=0,...`. */
export function keyspaceDatabases(info: string): number[] {
  return [...info.matchAll(/^db(\d+):keys=/gm)].map((match) => Number(match[1]));
}

/** The line logged when other databases hold queues under this process's prefix. */
export function sharedPrefixWarning(prefix: string, own: number, others: number[]): string {
  const listed = others.join(', ');
  return (
    `Redis database${others.length > 1 ? 's' : ''} ${listed} of this server also hold${others.length > 1 ? '' : 's'} ` +
    `Bull queues under the prefix "${prefix}" (this process uses database ${own}): Redis pub/sub is ` +
    `not scoped to a database, so producers of either deployment can receive the other's job ` +
    `completion events. Give each deployment its own QUEUE_PREFIX.`
  );
}

/**
 * Bull's completion events travel on Redis pub/sub channels named after the queue's keys
 * (`<prefix>:<queue>:completed`), and pub/sub channels are shared by every database of a server.
 * Two deployments on one server with different database numbers but the same prefix therefore
 * hear each other's events, and a producer waiting on job 7 with `job.finished()` can be answered
 * with the other deployment's job 7. At start this looks for queues under this process's prefix
 * in the server's other databases (INFO keyspace, then a bounded SCAN per database) and warns
 * once, naming them. It never holds the start up beyond its timeout and never fails it: a server
 * that refuses INFO or SELECT (managed Redis, cluster) is just not checked.
 */
@Injectable()
export class SharedPrefixCheck implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Queues');
  private redis: Redis | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly config: ConfigService<AppConfig, true>) {}

  onApplicationBootstrap(): void {
    // Only one server has databases; a cluster has database 0 alone.
    const url = this.config.get('queue.redisUrl', { infer: true });
    const target = this.config.get('queue.redis', { infer: true });
    if (!url || target?.kind !== 'node') return;
    const prefix = this.config.get('queue.prefix', { infer: true });
    const redis = new Redis(url, {
      ...(target.password ? { password: target.password } : {}),
      lazyConnect: true,
      connectTimeout: CHECK_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    this.redis = redis;
    this.running = withTimeout(
      this.otherDatabasesWithQueues(redis, prefix),
      CHECK_TIMEOUT_MS,
      () => new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`),
    )
      .then(({ own, others }) => {
        if (others.length > 0) this.logger.warn(sharedPrefixWarning(prefix, own, others));
      })
      .catch((error: unknown) =>
        this.logger.debug(
          { err: loggableError(error) },
          'could not check the Redis server for queues of another deployment under this prefix',
        ),
      )
      .finally(() => redis.disconnect());
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
    await this.running;
  }

  /** Other databases of the server holding a key of one of the queues under `prefix`. */
  private async otherDatabasesWithQueues(
    redis: Redis,
    prefix: string,
  ): Promise<{ own: number; others: number[] }> {
    await redis.connect();
    const own = redis.options.db ?? 0;
    const others: number[] = [];
    for (const db of keyspaceDatabases(await redis.info('keyspace'))) {
      if (db === own) continue;
      await redis.select(db);
      for (const queue of ALL_QUEUES) {
        if (await this.holdsKeyMatching(redis, `${prefix}:${queue}:*`)) {
          others.push(db);
          break;
        }
      }
    }
    return { own, others };
  }

  private async holdsKeyMatching(redis: Redis, pattern: string): Promise<boolean> {
    let cursor = '0';
    for (let scans = 0; scans < MAX_SCANS; scans++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      if (keys.length > 0) return true;
      if (next === '0') return false;
      cursor = next;
    }
    return false;
  }
}
