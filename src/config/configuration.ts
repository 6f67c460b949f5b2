import { registerAs } from '@nestjs/config';
import { DEFAULT_QUEUE_PREFIX } from '../queue/queue.constants';
import { logFormatOf, type AppRole } from './env.validation';

const bool = (v: string | undefined, fallback: boolean) =>
  v === undefined || v === '' ? fallback : v === 'true';
const int = (v: string | undefined, fallback: number) =>
  v === undefined || v === '' ? fallback : Number(v);

export const appConfig = registerAs('app', () => ({
  port: int(process.env.PORT, 3000),
  role: (process.env.APP_ROLE ?? 'all') as AppRole,
  adminApiKey: process.env.ADMIN_API_KEY || null,
  logLevel: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  logFormat: logFormatOf(process.env, process.stdout.isTTY === true),
  rateLimitPerMinute: int(process.env.RATE_LIMIT_PER_MINUTE, 600),
  requestTimeoutMs: int(process.env.REQUEST_TIMEOUT_MS, 5000),
  metricsPort: process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : null,
}));

export const databaseConfig = registerAs('database', () => ({
  url: process.env.DATABASE_URL ?? null,
  migrationsRun: bool(process.env.DB_MIGRATIONS_RUN, true),
}));

export const queueConfig = registerAs('queue', () => ({
  redisUrl: process.env.REDIS_URL ?? null,
  prefix: process.env.QUEUE_PREFIX || DEFAULT_QUEUE_PREFIX,
  lockMs: int(process.env.QUEUE_LOCK_MS, 15_000),
}));

export const webhookConfig = registerAs('webhook', () => ({
  allowPrivateNetworks: bool(process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, false),
  endCallAttempts: int(process.env.END_CALL_WEBHOOK_ATTEMPTS, 6),
  endCallBackoffMs: int(process.env.END_CALL_WEBHOOK_BACKOFF_MS, 2000),
  secretRotationGraceSeconds: int(process.env.WEBHOOK_SECRET_ROTATION_GRACE_SECONDS, 24 * 3600),
}));

export const logsConfig = registerAs('logs', () => ({
  retentionDays: int(process.env.LOG_RETENTION_DAYS, 90),
}));

export const CONFIG_LOADERS = [appConfig, databaseConfig, queueConfig, webhookConfig, logsConfig];
