import { DEFAULT_QUEUE_PREFIX } from '../contracts/limits';
import { DEFAULT_SQLITE_PATH, configuredPhoneRegion, loadAppConfig } from './app-config';

describe(loadAppConfig.name, () => {
  it('gives every setting its default on an empty environment (embedded mode)', () => {
    const config = loadAppConfig({});
    expect(config).toMatchObject({
      app: {
        port: 3000,
        role: 'all',
        adminApiKey: null,
        logLevel: 'info',
        rateLimitPerMinute: 600,
        requestTimeoutMs: 5000,
        metricsPort: null,
        trustProxy: false,
      },
      database: {
        driver: 'better-sqlite3',
        url: null,
        sqlitePath: DEFAULT_SQLITE_PATH,
        poolSize: 10,
        migrationsRun: true,
      },
      queue: { redisUrl: null, prefix: DEFAULT_QUEUE_PREFIX, lockMs: 15_000 },
      webhook: {
        allowPrivateNetworks: false,
        endCallAttempts: 6,
        endCallBackoffMs: 2000,
        secretRotationGraceSeconds: 86_400,
      },
      logs: { retentionDays: 90 },
      phone: { defaultRegion: 'IN' },
      limits: { maxRenderedPromptBytes: 262_144, maxContextResponseBytes: 65_536 },
    });
  });

  it('reads the render and context response limits', () => {
    expect(
      loadAppConfig({ MAX_RENDERED_PROMPT_BYTES: '4096', MAX_CONTEXT_RESPONSE_BYTES: '2048' })
        .limits,
    ).toEqual({ maxRenderedPromptBytes: 4096, maxContextResponseBytes: 2048 });
    expect(() => loadAppConfig({ MAX_RENDERED_PROMPT_BYTES: '10' })).toThrow(
      /MAX_RENDERED_PROMPT_BYTES/,
    );
    expect(() => loadAppConfig({ MAX_CONTEXT_RESPONSE_BYTES: 'lots' })).toThrow(
      /MAX_CONTEXT_RESPONSE_BYTES/,
    );
  });

  it('types what the environment sets, and treats an empty variable as unset', () => {
    const config = loadAppConfig({
      PORT: '8080',
      APP_ROLE: 'api',
      DATABASE_URL: 'mysql://u:p@db:3306/app',
      REDIS_URL: 'redis://redis:6379',
      QUEUE_PREFIX: '',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      DB_MIGRATIONS_RUN: 'false',
      METRICS_PORT: '9464',
      NODE_ENV: 'test',
    });
    expect(config.app).toMatchObject({
      port: 8080,
      role: 'api',
      metricsPort: 9464,
      logLevel: 'silent',
    });
    expect(config.database).toMatchObject({
      driver: 'mysql',
      url: 'mysql://u:p@db:3306/app',
      migrationsRun: false,
    });
    expect(config.queue).toMatchObject({
      redisUrl: 'redis://redis:6379',
      prefix: DEFAULT_QUEUE_PREFIX,
    });
    expect(config.webhook.allowPrivateNetworks).toBe(true);
  });

  it('refuses an invalid environment with the message naming the variable', () => {
    expect(() => loadAppConfig({ RATE_LIMIT_PER_MINUTE: 'many' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadAppConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(
      /^Invalid environment configuration:\n {2}TRUST_PROXY: .*"10\.0\.0\.0\/40"/,
    );
    expect(() => loadAppConfig({ DEFAULT_PHONE_REGION: 'XX' })).toThrow(/DEFAULT_PHONE_REGION/);
  });

  it('reads the phone region numbers without a country code belong to', () => {
    expect(loadAppConfig({ DEFAULT_PHONE_REGION: 'US' }).phone.defaultRegion).toBe('US');
    expect(configuredPhoneRegion({ DEFAULT_PHONE_REGION: 'US' })).toBe('US');
    expect(configuredPhoneRegion({})).toBe('IN');
  });
});
