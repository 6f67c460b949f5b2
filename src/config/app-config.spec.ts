import { DEFAULT_QUEUE_PREFIX } from '../contracts/limits';
import { ALL_QUEUES } from '../contracts/queues';
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
      queue: { redis: null, redisUrl: null, prefix: DEFAULT_QUEUE_PREFIX, lockMs: 15_000 },
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
      redis: { kind: 'node', url: 'redis://redis:6379' },
      redisUrl: 'redis://redis:6379',
      prefix: DEFAULT_QUEUE_PREFIX,
    });
    // One server: every queue keeps the prefix producers already use.
    expect(new Set(Object.values(config.queue.queuePrefixes))).toEqual(
      new Set([DEFAULT_QUEUE_PREFIX]),
    );
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

  it('reads a Redis Cluster: its nodes, password and TLS, and a hash-tag prefix per queue', () => {
    const config = loadAppConfig({
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002',
      REDIS_PASSWORD: 'pw',
      REDIS_TLS: 'true',
      APP_ROLE: 'worker',
    });
    expect(config.app.role).toBe('worker');
    expect(config.queue.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      password: 'pw',
      tls: true,
    });
    expect(config.queue.redisUrl).toBeNull();
    // Every queue, those added later included, in a slot of its own.
    expect(config.queue.queuePrefixes).toEqual(
      Object.fromEntries(ALL_QUEUES.map((queue) => [queue, `{${queue}}`])),
    );
    expect(config.queue.queuePrefixes['inbound-context-lookup']).toBe('{inbound-context-lookup}');
    const prefixed = loadAppConfig({ REDIS_CLUSTER_NODES: 'r:7000', QUEUE_PREFIX: 'prod' });
    expect(prefixed.queue.queuePrefixes['tool-call']).toBe('{prod:tool-call}');
    expect(prefixed.queue.prefix).toBe('prod');
  });

  it('refuses REDIS_URL with REDIS_CLUSTER_NODES, and a malformed node list', () => {
    expect(() =>
      loadAppConfig({ REDIS_URL: 'redis://r:6379', REDIS_CLUSTER_NODES: 'r:7000' }),
    ).toThrow(/REDIS_CLUSTER_NODES: set either REDIS_URL .* or REDIS_CLUSTER_NODES, not both/);
    expect(() => loadAppConfig({ REDIS_CLUSTER_NODES: 'r:7000,nope' })).toThrow(
      /REDIS_CLUSTER_NODES must be comma-separated host:port entries/,
    );
  });

  it('reads read replicas with MySQL, and refuses them with the embedded SQLite file', () => {
    expect(
      loadAppConfig({
        DATABASE_URL: 'mysql://u:p@db:3306/app',
        DATABASE_REPLICA_URLS: 'mysql://u:p@r1:3306/app, mysql://u:p@r2:3306/app',
      }).database.replicaUrls,
    ).toEqual(['mysql://u:p@r1:3306/app', 'mysql://u:p@r2:3306/app']);
    expect(loadAppConfig({}).database.replicaUrls).toEqual([]);
    expect(() => loadAppConfig({ DATABASE_REPLICA_URLS: 'mysql://u:p@r1:3306/app' })).toThrow(
      /DATABASE_REPLICA_URLS: read replicas need MySQL \(DATABASE_URL\)/,
    );
    expect(() =>
      loadAppConfig({ DATABASE_URL: 'mysql://db/app', DATABASE_REPLICA_URLS: 'postgres://x' }),
    ).toThrow(/DATABASE_REPLICA_URLS must be comma-separated mysql:\/\/ URLs/);
  });
});
