/**
 * Preloaded (`-r`) into a service process by `npm run bench:lookups`: counts every statement the
 * process sends to MySQL (mysql2's `query` and `execute`, which TypeORM's driver and the activity
 * log's one-trip pool use), and apart the activity log's own writes (to its tables, the
 * auto-increment setting, transaction control), and the round trips (a multi-statement query is
 * one trip of several statements). Also the time the process spent in garbage collection
 * (`gcMs`, every kind) and its scavenges (`scavenges`). Answers `{ sqlCount: true }` on the IPC
 * channel with the counts so far.
 */
import { dirname, join } from 'node:path';
import {
  constants,
  PerformanceObserver,
  type NodeGCPerformanceDetail,
  type PerformanceEntry,
} from 'node:perf_hooks';

// By path: mysql2's `exports` map does not publish its internals (the same module TypeORM gets).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BaseConnection = require(
  join(dirname(require.resolve('mysql2')), 'lib/base/connection.js'),
) as {
  prototype: Record<'query' | 'execute', (this: unknown, ...args: unknown[]) => unknown>;
};

/**
 * The activity log's own writes: a write to one of its tables (entries, per-day counters, the id
 * sequence), the highest id a block of ids is reserved above, transaction control. Another read of
 * those tables is not one of them.
 */
const LOG_WRITE =
  /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b[^;]*?\bactivity_log|^SELECT MAX\(`id`\) AS above FROM `activity_logs`$|^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i;

const counts = { total: 0, logWrites: 0, roundTrips: 0, gcMs: 0, scavenges: 0 };

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    counts.gcMs += entry.duration;
    const { kind } = (entry as PerformanceEntry & { detail: NodeGCPerformanceDetail }).detail;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) counts.scavenges += 1;
  }
}).observe({ entryTypes: ['gc'] });

/** The `;`-separated statements of `sql` (a `;` inside quotes separates nothing). */
function statementsOf(sql: string): string[] {
  if (!sql.includes(';')) return [sql];
  const parts: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === ';') {
      parts.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(sql.slice(start));
  const statements = parts.filter((part) => part.trim() !== '');
  return statements.length ? statements : [sql];
}

for (const method of ['query', 'execute'] as const) {
  const original = BaseConnection.prototype[method];
  BaseConnection.prototype[method] = function (this: unknown, ...args: unknown[]) {
    const [sql] = args;
    const text = typeof sql === 'string' ? sql : ((sql as { sql?: string } | null)?.sql ?? '');
    counts.roundTrips += 1;
    for (const statement of statementsOf(text)) {
      counts.total += 1;
      if (LOG_WRITE.test(statement)) counts.logWrites += 1;
    }
    return original.apply(this, args);
  };
}

process.on('message', (message: { sqlCount?: boolean }) => {
  if (message?.sqlCount) process.send?.({ sqlCount: { ...counts } });
});
