/**
 * Preloaded (`-r`) into a service process by `npm run bench:lookups`: counts every statement the
 * process sends to MySQL (mysql2's `query` and `execute`, which TypeORM's driver uses), and apart
 * the activity log's own writes (to its tables, the auto-increment setting, transaction
 * control). Answers `{ sqlCount: true }` on the IPC channel with the counts so far.
 */
import { dirname, join } from 'node:path';

// By path: mysql2's `exports` map does not publish its internals (the same module TypeORM gets).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BaseConnection = require(
  join(dirname(require.resolve('mysql2')), 'lib/base/connection.js'),
) as {
  prototype: Record<'query' | 'execute', (this: unknown, ...args: unknown[]) => unknown>;
};

/**
 * The activity log's own writes: a write to one of its tables (entries, per-day counters), the
 * auto-increment setting its batch insert reads, transaction control. A read of those tables is
 * not one of them.
 */
const LOG_WRITE =
  /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b[^;]*?\bactivity_log|auto_increment_increment|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

const counts = { total: 0, logWrites: 0 };

for (const method of ['query', 'execute'] as const) {
  const original = BaseConnection.prototype[method];
  BaseConnection.prototype[method] = function (this: unknown, ...args: unknown[]) {
    const [sql] = args;
    const text = typeof sql === 'string' ? sql : ((sql as { sql?: string } | null)?.sql ?? '');
    counts.total += 1;
    if (LOG_WRITE.test(text)) counts.logWrites += 1;
    return original.apply(this, args);
  };
}

process.on('message', (message: { sqlCount?: boolean }) => {
  if (message?.sqlCount) process.send?.({ sqlCount: { ...counts } });
});
