/**
 * Runs in every e2e test file before anything is imported. DATABASE_URL / REDIS_URL decide the
 * mode: both set → MySQL + Bull on Redis; unset → embedded SQLite (one file per Jest worker) with
 * in-process jobs.
 */
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
process.env.ADMIN_API_KEY ??= 'test-admin-key-0123456789abcdef';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ??= 'true';
// Suites fire many requests with one key; the rate-limit test boots its own app with a low limit.
process.env.RATE_LIMIT_PER_MINUTE ??= '0';
const unique = `${process.env.JEST_WORKER_ID ?? '1'}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
// One Bull prefix per test file: files run side by side, and a file's workers (booted with its
// own settings, e.g. private networks refused) must never take another file's jobs.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'vac-test'}-${unique}`;
if (!process.env.DATABASE_URL) {
  // One file per test file: a file never waits on a lock an earlier file's app left behind.
  process.env.SQLITE_PATH = `./data/test/e2e-${unique}.sqlite`;
} else {
  // The secret store's key: required with MySQL (embedded runs create a key file per SQLite file).
  process.env.SECRETS_ENCRYPTION_KEY ??= 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=';
  // The global setup applied the migrations once; parallel workers must not race to apply them again.
  process.env.DB_MIGRATIONS_RUN = 'false';
}
