import type { CountryCode } from 'libphonenumber-js';
import { DEFAULT_QUEUE_PREFIX } from '../contracts/limits';
import { ALL_QUEUES, queueKeyPrefix, type QueueName } from '../contracts/queues';
import {
  logFormatOf,
  validateEnv,
  corsOriginsOf,
  type AppRole,
  type EnvironmentVariables,
  type LogFormat,
} from './env.validation';
import { configuredRedis, type RedisTarget } from './redis-target';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

/** One owner's jobs of one queue running at once in a worker process, by default. */
export const DEFAULT_OWNER_MAX_IN_FLIGHT = 20;

/** The inbound provider's country: numbers written without a country code are read as Indian. */
export const DEFAULT_PHONE_REGION: CountryCode = 'IN';

/** Where the embedded mode keeps its database when `SQLITE_PATH` is unset. */
export const DEFAULT_SQLITE_PATH = './data/voice-assistant.sqlite';

export type DatabaseDriver = 'mysql' | 'better-sqlite3';

/**
 * Everything the service reads from its environment, validated and with every default applied:
 * the one place a default is declared. Nest code injects `ConfigService<AppConfig, true>` and reads
 * `config.get('queue.prefix', { infer: true })`; entry points and scripts call `loadAppConfig()`.
 */
export interface AppConfig {
  app: {
    nodeEnv: string;
    port: number;
    /** What this process does; always `all` without Redis (jobs then run in-process). */
    role: AppRole;
    adminApiKey: string | null;
    logLevel: string;
    logFormat: LogFormat;
    rateLimitPerMinute: number;
    requestTimeoutMs: number;
    /** `SHUTDOWN_GRACE_MS`: how long a stop waits for in-flight work before exiting anyway. */
    shutdownGraceMs: number;
    metricsPort: number | null;
    /** Express's `trust proxy`: which hops in front of the service may set X-Forwarded-For. */
    trustProxy: TrustProxy;
    /** Browser origins allowed to call the API (`*`: any); null: CORS off. */
    corsOrigins: '*' | string[] | null;
  };
  database: {
    driver: DatabaseDriver;
    /** mysql://…, or null for the embedded SQLite file. */
    url: string | null;
    /** mysql://… of read replicas (`DATABASE_REPLICA_URLS`); empty: every read goes to `url`. */
    replicaUrls: string[];
    sqlitePath: string;
    poolSize: number;
    migrationsRun: boolean;
  };
  queue: {
    /** One Redis server or a Redis Cluster, or null: jobs run in-process. */
    redis: RedisTarget | null;
    /** The one server's redis://…, or null (on a cluster too: read `redis` to connect). */
    redisUrl: string | null;
    /** `QUEUE_PREFIX`: the prefix of every key and channel the service itself names. */
    prefix: string;
    /**
     * Each queue's Bull key prefix: `prefix` on one server; on a cluster the hash tag
     * `{<queue>}` (`{<QUEUE_PREFIX>:<queue>}` when set), so a queue's keys share a slot.
     */
    queuePrefixes: Record<QueueName, string>;
    lockMs: number;
    /** `OWNER_MAX_IN_FLIGHT`: one owner's jobs of one queue running at once in a process. */
    ownerMaxInFlight: number;
  };
  webhook: {
    allowPrivateNetworks: boolean;
    endCallAttempts: number;
    endCallBackoffMs: number;
    secretRotationGraceSeconds: number;
  };
  logs: {
    retentionDays: number;
  };
  phone: {
    /** Region whose national formats phone numbers without a `+` are read in. */
    defaultRegion: CountryCode;
  };
  /** Bounds on what a customer's data can make the service hold. */
  limits: {
    /** Each rendered prompt and start instruction, in UTF-8 bytes. */
    maxRenderedPromptBytes: number;
    /** A customer's context response body, read no further. */
    maxContextResponseBytes: number;
  };
  secrets: {
    /**
     * The secret store's AES-256-GCM key (base64 of 32 bytes), or null: required with MySQL; the
     * embedded mode then keeps one in a file beside its SQLite file (`<SQLITE_PATH>.secrets-key`).
     */
    encryptionKey: string | null;
  };
}

/**
 * The driver a process uses, from `DATABASE_URL` alone and without validating the rest: entity
 * column types need it when their modules are imported, before the environment is validated.
 */
export function databaseDriver(env: NodeJS.ProcessEnv = process.env): DatabaseDriver {
  return env.DATABASE_URL ? 'mysql' : 'better-sqlite3';
}

/**
 * `REDIS_URL`, or null, likewise read without validating the rest. A cluster has no URL: the
 * queue module reads `configuredRedis()`.
 */
export function configuredRedisUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.REDIS_CLUSTER_NODES ? null : env.REDIS_URL || null;
}

/** Each queue's Bull key prefix (see AppConfig `queue.queuePrefixes`). */
export function queuePrefixesOf(
  redis: RedisTarget | null,
  queuePrefix: string | undefined,
): Record<QueueName, string> {
  const cluster = redis?.kind === 'cluster';
  return Object.fromEntries(
    ALL_QUEUES.map((name) => [name, queueKeyPrefix(name, { cluster, prefix: queuePrefix })]),
  ) as Record<QueueName, string>;
}

/**
 * `DEFAULT_PHONE_REGION`, or its default, read without validating the rest: the phone-number
 * validator of request bodies needs it outside Nest's injection. `loadAppConfig()` validates it at
 * boot, so a process never runs with a region this returns unchecked.
 */
export function configuredPhoneRegion(env: NodeJS.ProcessEnv = process.env): CountryCode {
  return (env.DEFAULT_PHONE_REGION || DEFAULT_PHONE_REGION) as CountryCode;
}

/** Validates `env` (throwing the message that names each bad variable) and applies the defaults. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const v = validateEnv(env) as EnvironmentVariables;
  const redis = configuredRedis(env);
  const nodeEnv = v.NODE_ENV ?? 'development';
  return {
    app: {
      nodeEnv,
      port: v.PORT ?? 3000,
      role: redis ? (v.APP_ROLE ?? 'all') : 'all',
      adminApiKey: v.ADMIN_API_KEY ?? null,
      logLevel: v.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
      logFormat: logFormatOf(env, process.stdout.isTTY === true),
      rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE ?? 600,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS ?? 5000,
      shutdownGraceMs: v.SHUTDOWN_GRACE_MS ?? 25_000,
      metricsPort: v.METRICS_PORT ?? null,
      trustProxy: v.TRUST_PROXY === undefined ? false : parseTrustProxy(v.TRUST_PROXY),
      corsOrigins: corsOriginsOf(v.CORS_ORIGINS),
    },
    database: {
      driver: databaseDriver(env),
      url: v.DATABASE_URL ?? null,
      replicaUrls: (v.DATABASE_REPLICA_URLS ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
      sqlitePath: v.SQLITE_PATH ?? DEFAULT_SQLITE_PATH,
      poolSize: v.DB_POOL_SIZE ?? 10,
      migrationsRun: v.DB_MIGRATIONS_RUN ?? true,
    },
    queue: {
      redis,
      redisUrl: configuredRedisUrl(env),
      prefix: v.QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX,
      queuePrefixes: queuePrefixesOf(redis, v.QUEUE_PREFIX),
      lockMs: v.QUEUE_LOCK_MS ?? 15_000,
      ownerMaxInFlight: v.OWNER_MAX_IN_FLIGHT ?? DEFAULT_OWNER_MAX_IN_FLIGHT,
    },
    webhook: {
      allowPrivateNetworks: v.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? false,
      endCallAttempts: v.END_CALL_WEBHOOK_ATTEMPTS ?? 6,
      endCallBackoffMs: v.END_CALL_WEBHOOK_BACKOFF_MS ?? 2000,
      secretRotationGraceSeconds: v.WEBHOOK_SECRET_ROTATION_GRACE_SECONDS ?? 24 * 3600,
    },
    logs: {
      retentionDays: v.LOG_RETENTION_DAYS ?? 90,
    },
    phone: {
      defaultRegion: (v.DEFAULT_PHONE_REGION as CountryCode | undefined) ?? DEFAULT_PHONE_REGION,
    },
    limits: {
      maxRenderedPromptBytes: v.MAX_RENDERED_PROMPT_BYTES ?? 256 * 1024,
      maxContextResponseBytes: v.MAX_CONTEXT_RESPONSE_BYTES ?? 64 * 1024,
    },
    secrets: {
      encryptionKey: v.SECRETS_ENCRYPTION_KEY ?? null,
    },
  };
}
