/**
 * Runs before each fault scenario file. The scenarios pass DATABASE_URL / REDIS_URL of their own
 * private servers explicitly; the inherited ones are dropped so nothing can reach the shared
 * services on 3306 / 6379 by accident.
 */
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
process.env.ADMIN_API_KEY ??= 'test-admin-key-0123456789abcdef';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
process.env.RATE_LIMIT_PER_MINUTE ??= '0';
// The secret store's key: required with MySQL.
process.env.SECRETS_ENCRYPTION_KEY ??= 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=';
