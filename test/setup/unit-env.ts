/**
 * Unit tests never talk to MySQL or Redis: the driver-dependent column types (src/database/column-types.ts)
 * must be the embedded ones whatever the shell exports for the e2e run.
 */
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
