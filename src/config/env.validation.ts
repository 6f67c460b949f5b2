import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { getCountries } from 'libphonenumber-js';
import { CLUSTER_NODES_PATTERN } from './redis-target';
import { crossChecks } from './env-cross-checks';
import { parseTrustProxy } from './trust-proxy';

const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === 'true'
      ? true
      : value === 'false'
        ? false
        : value;
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : typeof value === 'string' && /^-?\d+$/.test(value)
      ? Number(value)
      : value;

/** Decorators stacked as if written one above the other (the last applied first). */
const stacked =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };

/** An optional whole number from `min` to `max`, given as digits. */
const OptionalInt = (min: number, max: number) =>
  stacked(IsOptional(), Transform(toInt), IsInt(), Min(min), Max(max));

/** An optional `true` or `false`. */
const OptionalBool = () => stacked(IsOptional(), Transform(toBool), IsBoolean());

export const APP_ROLES = ['all', 'api', 'worker'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `LOG_FORMAT`, else pretty when stdout is a terminal and JSON when it is a pipe or a file. */
export function logFormatOf(env: NodeJS.ProcessEnv, stdoutIsTty: boolean): LogFormat {
  const chosen = env.LOG_FORMAT;
  if (chosen === 'pretty' || chosen === 'json') return chosen;
  return stdoutIsTty ? 'pretty' : 'json';
}
export type AppRole = (typeof APP_ROLES)[number];

const ORIGIN = String.raw`https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?`;
const CORS_ORIGINS_PATTERN = new RegExp(String.raw`^\s*(\*|${ORIGIN}(\s*,\s*${ORIGIN})*)\s*$`);

/** `CORS_ORIGINS` as the app uses it: `*`, the list of allowed origins, or null (CORS off). */
export function corsOriginsOf(value: string | undefined): '*' | string[] | null {
  if (!value?.trim()) return null;
  if (value.trim() === '*') return '*';
  return value.split(',').map((origin) => origin.trim());
}

/**
 * Every environment variable the service reads, validated once at boot. A bad value stops the
 * process with a message naming the variable; `.env.example` lists them with their defaults.
 */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @OptionalInt(0, 65535)
  PORT?: number;

  @IsOptional()
  @IsIn(APP_ROLES)
  APP_ROLE?: AppRole;

  /** mysql://user:pass@host:3306/db. Unset: embedded SQLite file. */
  @IsOptional()
  @Matches(/^mysql:\/\/.+/, { message: 'DATABASE_URL must be a mysql:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  SQLITE_PATH?: string;

  @OptionalInt(1, 500)
  DB_POOL_SIZE?: number;

  @OptionalBool()
  DB_MIGRATIONS_RUN?: boolean;

  /** redis://host:6379. Unset: jobs run in-process. */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** host:port,... of a Redis Cluster's nodes (instead of REDIS_URL). */
  @IsOptional()
  @Matches(CLUSTER_NODES_PATTERN, {
    message: 'REDIS_CLUSTER_NODES must be comma-separated host:port entries',
  })
  REDIS_CLUSTER_NODES?: string;

  /** The password of every cluster node (or of REDIS_URL's server when the URL has none). */
  @IsOptional()
  @IsString()
  REDIS_PASSWORD?: string;

  /** TLS to every cluster node (REDIS_URL says it with rediss://). */
  @OptionalBool()
  REDIS_TLS?: boolean;

  /** mysql://… URLs of read replicas of DATABASE_URL, comma-separated (MySQL only). */
  @IsOptional()
  @Matches(/^\s*mysql:\/\/[^\s,]+(\s*,\s*mysql:\/\/[^\s,]+)*\s*$/, {
    message: 'DATABASE_REPLICA_URLS must be comma-separated mysql:// URLs',
  })
  DATABASE_REPLICA_URLS?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9:_-]+$/, {
    message: 'QUEUE_PREFIX may hold letters, digits, colon, dash and underscore',
  })
  QUEUE_PREFIX?: string;

  /** How long a stopping process waits for its requests and jobs before it exits anyway. */
  @OptionalInt(100, 600000)
  SHUTDOWN_GRACE_MS?: number;

  /** How long a worker holds a job before another may take it over if the worker died. */
  @OptionalInt(1000, 600000)
  QUEUE_LOCK_MS?: number;

  /** Jobs of one owner (tenant) and one queue that one worker process runs at once. */
  @OptionalInt(1, 10000)
  OWNER_MAX_IN_FLIGHT?: number;

  /** A request still unanswered after this gets 503 (e.g. the database stopped answering). */
  @OptionalInt(100, 600000)
  REQUEST_TIMEOUT_MS?: number;

  /** Operator bearer for POST /auth/create-key. Unset: that route is disabled. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_API_KEY must be at least 16 characters' })
  ADMIN_API_KEY?: string;

  /** `*`, or comma-separated browser origins allowed to call the API. Unset: no CORS headers. */
  @IsOptional()
  @IsString()
  @Matches(CORS_ORIGINS_PATTERN, {
    message:
      'CORS_ORIGINS must be * or comma-separated origins such as https://dash.example.com (scheme, host, optional port; no path)',
  })
  CORS_ORIGINS?: string;

  /** The worker's `GET /metrics` port. Unset: the worker serves no metrics. */
  @OptionalInt(0, 65535)
  METRICS_PORT?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** `pretty` (human-readable, for a terminal) or `json` (one object per line, for collectors). */
  @IsOptional()
  @IsIn(LOG_FORMATS)
  LOG_FORMAT?: LogFormat;

  @OptionalBool()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS?: boolean;

  @OptionalInt(1, 3650)
  LOG_RETENTION_DAYS?: number;

  @OptionalInt(1, 20)
  END_CALL_WEBHOOK_ATTEMPTS?: number;

  @OptionalInt(10, 600000)
  END_CALL_WEBHOOK_BACKOFF_MS?: number;

  @OptionalInt(0, 1000000)
  RATE_LIMIT_PER_MINUTE?: number;

  @OptionalInt(0, 86400)
  WEBHOOK_SECRET_ROTATION_GRACE_SECONDS?: number;

  /** The most a rendered prompt or start instruction may reach, in UTF-8 bytes (lookup, dry run, render route). */
  @OptionalInt(1024, 16 * 1024 * 1024)
  MAX_RENDERED_PROMPT_BYTES?: number;

  /** The most of a customer's context response that is read; a larger one is an invalid response. */
  @OptionalInt(1024, 16 * 1024 * 1024)
  MAX_CONTEXT_RESPONSE_BYTES?: number;

  /** ISO 3166 region whose national formats (`080 5555 7546`, `0091 …`) phone numbers are read in. */
  @IsOptional()
  @IsIn(getCountries(), {
    message: 'DEFAULT_PHONE_REGION must be an ISO 3166 region code such as IN or US',
  })
  DEFAULT_PHONE_REGION?: string;

  /** Express's `trust proxy`: true/false, a hop count, or addresses/CIDRs (see parseTrustProxy). */
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  /** AES-256-GCM key of the secret store: base64 of 32 bytes (`openssl rand -base64 32`). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message:
      'SECRETS_ENCRYPTION_KEY must be the base64 of 32 bytes (make one with: openssl rand -base64 32)',
  })
  SECRETS_ENCRYPTION_KEY?: string;
}

/** `ConfigModule`'s validate hook; also used by entry points before Nest starts. */
export function validateEnv(raw: Record<string, unknown>): Record<string, unknown> {
  // An empty variable (`DATABASE_URL=`) means unset, as in .env.example.
  const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== ''));
  const env = plainToInstance(EnvironmentVariables, present, { enableImplicitConversion: false });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  const problems = errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`),
  );
  if (env.TRUST_PROXY !== undefined) {
    try {
      parseTrustProxy(env.TRUST_PROXY);
    } catch (error) {
      problems.push(`TRUST_PROXY: ${(error as Error).message}`);
    }
  }
  problems.push(...crossChecks(env));
  if (problems.length)
    throw new Error(`Invalid environment configuration:\n  ${problems.join('\n  ')}`);
  return { ...present, ...env };
}
