import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { plainToInstance } from 'class-transformer';
import { DataSource } from 'typeorm';
import { ActivityLogCountEntity } from './activity-log-count.entity';
import { ActivityLogTargetCountEntity } from './activity-log-target-count.entity';
import { ActivityLogEntity, type LogStatus, type LogType } from './activity-log.entity';
import { ActivityLogService } from './activity-log.service';
import { ActivityLogRepository } from './activity-log.repository';
import { LogsQueryDto } from './dto/logs-query.dto';
import { LogRetentionService } from './log-retention.service';

/**
 * Runs against a real embedded SQLite database, where TypeORM stores the timestamp as text: the
 * ordering, the `from`/`to` bounds and the retention cutoff must all hold there too. The MySQL side
 * is covered by test/e2e/activity-log/logs.e2e-spec.ts and bench/logs-bench.ts.
 */
describe(ActivityLogService.name, () => {
  let dataSource: DataSource;
  let service: ActivityLogService;
  const userId = randomUUID();
  const assistantA = randomUUID();
  const assistantB = randomUUID();
  const base = Date.UTC(2025, 0, 1, 12, 0, 0);

  const query = (q: Record<string, unknown>) => plainToInstance(LogsQueryDto, q);

  beforeAll(async () => {
    dataSource = await openDatabase();
    service = new ActivityLogService(
      new ActivityLogRepository(dataSource.getRepository(ActivityLogEntity)),
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  async function seed(
    n: number,
    at: (i: number) => number,
    over: Partial<{
      user_id: string;
      log_type: LogType;
      status: LogStatus;
      assistant_id: string;
      room_name: string;
    }> = {},
  ) {
    for (let i = 0; i < n; i += 1) {
      const id = await service.record({
        user_id: userId,
        log_type: 'tool_call',
        status: 'success',
        assistant_id: assistantA,
        room_name: 'room-1',
        message: `entry ${i}`,
        request_data: { i },
        response_data: {},
        latency_ms: 12.6,
        timestamp: new Date(at(i)),
        ...over,
      });
      expect(id).toMatch(/^\d+$/);
    }
  }

  it('records an entry and returns it with a UTC ISO timestamp', async () => {
    const user = randomUUID();
    await seed(1, () => base, { user_id: user, room_name: 'single' });
    const page = await service.list(user, query({}));
    expect(page).toEqual({
      logs: [
        {
          log_id: expect.stringMatching(/^\d+$/),
          log_type: 'tool_call',
          status: 'success',
          assistant_id: assistantA,
          room_name: 'single',
          timestamp: '2025-01-01T12:00:00.000Z',
          message: 'entry 0',
          request_data: { i: 0 },
          response_data: {},
          latency_ms: 13,
          error_class: null,
          trace_id: null,
          replay_of: null,
        },
      ],
      total: 1,
      page: 1,
      limit: 50,
      next_cursor: null,
    });
  });

  it('writes the entry of one attempt once: sequentially, and twice in one batch', async () => {
    const user = randomUUID();
    const attempt = (key: string, message: string) =>
      service.record({
        user_id: user,
        log_type: 'tool_call',
        status: 'error',
        assistant_id: assistantA,
        room_name: 'attempts',
        message,
        request_data: {},
        response_data: {},
        latency_ms: 1,
        timestamp: new Date(base),
        attempt_key: key,
      });
    const first = await attempt('job-a.1', 'outcome unknown');
    expect(await attempt('job-a.1', 'answered')).toBe(first);
    // Both in the same group commit: the first one written wins, both get its id.
    const [one, two] = await Promise.all([
      attempt('job-b.1', 'first'),
      attempt('job-b.1', 'second'),
    ]);
    expect(two).toBe(one);
    const page = await service.list(user, query({}));
    expect(page.total).toBe(2);
    expect(page.logs.map((l) => l.message).sort()).toEqual(['first', 'outcome unknown']);
    // The per-day counters count each entry once too.
    expect((await service.list(user, query({ from: '2025-01-01T00:00:00Z' }))).total).toBe(2);
  });

  describe('listing', () => {
    beforeAll(async () => {
      // 10 entries sharing one timestamp (ties broken by id), then 20 spread over 20 minutes.
      await seed(10, () => base);
      await seed(20, (i) => base + (i + 1) * 60_000, {
        log_type: 'end_call_webhook',
        assistant_id: assistantB,
      });
      await seed(5, (i) => base + (i + 1) * 60_000, { status: 'error', room_name: 'room-2' });
      await seed(3, (i) => base + i, { user_id: randomUUID() });
    });

    it('pages newest first without repeats or gaps, ties broken by id descending', async () => {
      const seen: string[] = [];
      const timestamps: string[] = [];
      for (let page = 1; page <= 4; page += 1) {
        const result = await service.list(userId, query({ page, limit: 10 }));
        expect(result.total).toBe(35);
        seen.push(...result.logs.map((l) => l.log_id));
        timestamps.push(...result.logs.map((l) => l.timestamp));
        expect(result.logs.length).toBe(page === 4 ? 5 : 10);
      }
      expect(new Set(seen).size).toBe(35);
      expect([...timestamps].sort().reverse()).toEqual(timestamps);
      const tail = seen.slice(-10).map(Number);
      expect(tail).toEqual([...tail].sort((a, b) => b - a));
      expect((await service.list(userId, query({ page: 5, limit: 10 }))).logs).toEqual([]);
    });

    it.each([
      [{ log_type: 'end_call_webhook' }, 20],
      [{ log_type: 'tool_call' }, 15],
      [{ assistant_id: assistantB }, 20],
      [{ room_name: 'room-2' }, 5],
      [{ status: 'error' }, 5],
      [{ log_type: 'tool_call', status: 'error', room_name: 'room-2' }, 5],
      [{ log_type: 'end_call_webhook', status: 'error' }, 0],
      [{ from: '2025-01-01T12:05:00Z' }, 16 + 1],
      [{ to: '2025-01-01T12:00:00Z' }, 10],
      [{ from: '2025-01-01T12:01:00Z', to: '2025-01-01T12:02:00Z' }, 4],
      [{ from: '2025-01-01T17:31:00+05:30', to: '2025-01-01T12:02:00' }, 4],
      [{ from: '2025-01-02' }, 0],
    ])('filters %j to %d entries', async (filters, total) => {
      const result = await service.list(userId, query({ ...filters, limit: 100 }));
      expect(result.total).toBe(total);
      expect(result.logs.length).toBe(total);
    });

    it('returns nothing of another user', async () => {
      expect(await service.list(randomUUID(), query({}))).toEqual({
        logs: [],
        total: 0,
        page: 1,
        limit: 50,
        next_cursor: null,
      });
    });
  });

  describe(LogRetentionService.name, () => {
    it('deletes entries older than the retention window in batches and keeps the rest', async () => {
      const own = await openDatabase();
      const repo = own.getRepository(ActivityLogEntity);
      const writer = new ActivityLogService(new ActivityLogRepository(repo));
      const now = new Date('2025-06-01T00:00:00Z');
      const day = 24 * 3600 * 1000;
      const at = (ms: number) =>
        writer.record({
          user_id: userId,
          log_type: 'tool_call',
          status: 'success',
          assistant_id: null,
          room_name: 'r',
          message: 'm',
          request_data: {},
          response_data: {},
          latency_ms: 1,
          timestamp: new Date(ms),
        });
      for (let i = 0; i < 7; i += 1) await at(now.getTime() - 30 * day - 1 - i * 1000);
      for (let i = 0; i < 3; i += 1) await at(now.getTime() - 30 * day + 1 + i * 1000);
      const retention = new LogRetentionService(
        repo,
        new ConfigService({ logs: { retentionDays: 30 } }),
      );
      expect(await retention.purge(now, 3)).toEqual({
        cutoff: '2025-05-02T00:00:00.000Z',
        deleted: 7,
        batches: 3,
      });
      expect(await repo.count()).toBe(3);
      expect(await retention.purge(now, 3)).toEqual({
        cutoff: '2025-05-02T00:00:00.000Z',
        deleted: 0,
        batches: 0,
      });
      await own.destroy();
    });
  });
});

async function openDatabase(): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: [ActivityLogEntity, ActivityLogCountEntity, ActivityLogTargetCountEntity],
    synchronize: true,
  });
  return dataSource.initialize();
}
