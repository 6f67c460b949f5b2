/**
 * The seed of `npm run bench:logs`: activity-log rows written straight into MySQL in multi-row
 * INSERTs, each batch with its endpoint counters (`addTargetCounts`, as the service's writer does)
 * in the same transaction; the per-day counters are rebuilt from the rows at the end.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';
import type { ErrorClass } from '../src/contracts/error-class';
import type { LogRow } from '../src/activity-log/group-commit-writer';

export const HEAVY_USER = '00000000-0000-4000-8000-00000000beef';
export const OTHER_USERS = 100;
export const ASSISTANTS = 20;
export const ROOMS = 5000;
export const ORIGINS = 8;
export const DAYS = 90;
export const BATCH = 4000;
const HEAVY_SHARE = 0.5;
const LOG_TYPES = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'] as const;
const ERROR_CLASSES: ErrorClass[] = ['http_5xx', 'timeout', 'auth'];

export const assistantId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
export const roomName = (i: number) => `room-${String(i).padStart(5, '0')}`;
/** One trace per call (room): 32 hex digits. */
export const traceId = (room: number) => room.toString(16).padStart(32, '0');

export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** The GET /logs filters the bench measures, each with its name in the report. */
export function scenarios(): [string, Record<string, string>][] {
  return [
    ['no filter', {}],
    ['log_type', { log_type: 'end_call_webhook' }],
    ['assistant_id', { assistant_id: assistantId(4) }],
    ['room_name', { room_name: roomName(1234) }],
    ['status', { status: 'error' }],
    ['error_class', { error_class: 'timeout' }],
    ['trace_id', { trace_id: traceId(1234) }],
    ['from (last 7 days)', { from: daysAgo(7) }],
    ['to (until 30 days ago)', { to: daysAgo(30) }],
    ['from + to (10 to 3 days ago)', { from: daysAgo(10), to: daysAgo(3) }],
    ['log_type + assistant_id', { log_type: 'tool_call', assistant_id: assistantId(4) }],
    ['log_type + status', { log_type: 'tool_call', status: 'error' }],
    ['error_class + log_type', { error_class: 'timeout', log_type: 'end_call_webhook' }],
    [
      'error_class + log_type + assistant_id',
      { error_class: 'timeout', log_type: 'end_call_webhook', assistant_id: assistantId(10) },
    ],
    ['error_class + from + to', { error_class: 'timeout', from: daysAgo(10), to: daysAgo(3) }],
  ];
}

const COLUMNS = [
  'user_id',
  'log_type',
  'status',
  'assistant_id',
  'room_name',
  'timestamp',
  'message',
  'request_data',
  'response_data',
  'latency_ms',
  'error_class',
  'trace_id',
] as const;

/** Row `i` of `total`: the heavy user holds every other row of the whole range. */
function row(i: number, total: number, now: number, otherUsers: string[]): LogRow {
  const heavy = i % 2 === 0 && i / total < HEAVY_SHARE * 2;
  const type = LOG_TYPES[(i * 7) % 3];
  const status = i % 10 === 0 ? 'error' : 'success';
  const room = (i >> 1) % ROOMS;
  return {
    user_id: heavy ? HEAVY_USER : otherUsers[i % OTHER_USERS],
    log_type: type,
    status,
    assistant_id: assistantId(i % ASSISTANTS),
    room_name: roomName(room),
    timestamp: new Date(now - Math.floor(((total - i) / total) * DAYS * 86_400_000)),
    message: `${type} ${status}`,
    request_data: {
      url: `https://hooks-${(i >> 1) % ORIGINS}.example.com/x`,
      attempt: 1,
      payload: { caller_number: '+15550100' },
    },
    response_data: {
      status_code: status === 'error' ? 503 : 200,
      body: { ok: status === 'success' },
    },
    latency_ms: (i * 37) % 900,
    error_class: status === 'error' ? ERROR_CLASSES[(i / 10) % 3] : null,
    trace_id: traceId(room),
    request_body: null,
    replay_of: null,
    attempt_key: null,
  };
}

/** Inserts `total` rows; returns the seconds it took. */
export async function seedLogs(dataSource: DataSource, total: number): Promise<number> {
  const { addTargetCounts } = await import('../src/activity-log/log-targets');
  const { rebuildCounts } = await import('../src/activity-log/log-counts');
  await dataSource.query('TRUNCATE TABLE activity_logs');
  await dataSource.query('TRUNCATE TABLE activity_log_target_counts');
  const otherUsers = Array.from({ length: OTHER_USERS }, () => randomUUID());
  const now = Date.now();
  const started = performance.now();
  const rowSql = `(${COLUMNS.map(() => '?').join(',')})`;
  for (let offset = 0; offset < total; offset += BATCH) {
    const size = Math.min(BATCH, total - offset);
    const rows = Array.from({ length: size }, (_, k) => row(offset + k, total, now, otherUsers));
    const params = rows.flatMap((r) =>
      COLUMNS.map((c) =>
        c === 'request_data' || c === 'response_data' ? JSON.stringify(r[c]) : r[c],
      ),
    );
    await dataSource.transaction(async (em) => {
      await em.query(
        `INSERT INTO activity_logs (${COLUMNS.join(', ')}) VALUES ${new Array(size).fill(rowSql).join(',')}`,
        params,
      );
      await addTargetCounts(em, rows);
    });
    if ((offset / BATCH) % 25 === 0) process.stdout.write(`\rseeded ${offset + size} / ${total}`);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`\rseeded ${total} rows in ${seconds.toFixed(1)} s\n`);
  await dataSource.query('ANALYZE TABLE activity_logs');
  await rebuildCounts(dataSource);
  return seconds;
}
