import { corsOriginsOf, logFormatOf, validateEnv } from './env.validation';

describe(validateEnv.name, () => {
  it('accepts an empty environment (embedded defaults)', () => {
    expect(() => validateEnv({})).not.toThrow();
  });

  it('accepts a full production environment', () => {
    const env = validateEnv({
      PORT: '8080',
      APP_ROLE: 'api',
      DATABASE_URL: 'mysql://u:p@db:3306/app',
      REDIS_URL: 'redis://redis:6379',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
      LOG_RETENTION_DAYS: '30',
    });
    expect(env.PORT).toBe(8080);
    expect(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(false);
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['APP_ROLE', { APP_ROLE: 'scheduler' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://x' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }],
    ['LOG_RETENTION_DAYS', { LOG_RETENTION_DAYS: '0' }],
    ['LOG_FORMAT', { LOG_FORMAT: 'xml' }],
    ['ADMIN_API_KEY', { ADMIN_API_KEY: 'short' }],
    ['APP_ROLE', { APP_ROLE: 'worker' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'lb.internal' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://dash.example.com/' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'dash.example.com' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: '*, https://dash.example.com' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://a.example.com,,https://b.example.com' }],
  ])('names %s when it is invalid', (name, env) => {
    expect(() => validateEnv(env)).toThrow(
      new RegExp(`^Invalid environment configuration:[\\s\\S]*${name}`),
    );
  });
});

describe('validateEnv empty values', () => {
  it('treats an empty variable as unset', () => {
    expect(() => validateEnv({ DATABASE_URL: '', REDIS_URL: '', PORT: '' })).not.toThrow();
  });
});

describe(logFormatOf.name, () => {
  it('is pretty on a terminal and JSON on a pipe unless LOG_FORMAT says otherwise', () => {
    expect(logFormatOf({}, true)).toBe('pretty');
    expect(logFormatOf({}, false)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(logFormatOf({ LOG_FORMAT: '' }, false)).toBe('json');
  });
});

describe(corsOriginsOf.name, () => {
  it('is off when unset, * alone, or the trimmed list of origins', () => {
    expect(() =>
      validateEnv({
        CORS_ORIGINS: ' https://a.example.com , http://localhost:5173,http://[::1]:8080',
      }),
    ).not.toThrow();
    expect(corsOriginsOf(undefined)).toBeNull();
    expect(corsOriginsOf(' * ')).toBe('*');
    expect(corsOriginsOf(' https://a.example.com , http://localhost:5173')).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
  });
});
