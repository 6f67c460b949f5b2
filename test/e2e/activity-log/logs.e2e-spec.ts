import { randomUUID } from 'node:crypto';
import { type LogStatus, type LogType } from '../../../src/activity-log/activity-log.entity';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../../../src/activity-log/activity-log.service';
import type { PurgeResult } from '../../../src/activity-log/log-retention.service';
import type { MaintenanceJobData } from '../../../src/queue/maintenance-tasks';
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';

interface Seed {
  log_type: LogType;
  status: LogStatus;
  assistant_id: string | null;
  room_name: string;
  at: number;
}

const ENTRY_KEYS = [
  'assistant_id',
  'error_class',
  'latency_ms',
  'log_id',
  'log_type',
  'message',
  'replay_of',
  'request_data',
  'response_data',
  'room_name',
  'status',
  'timestamp',
  'trace_id',
];

describe('GET /logs (e2e)', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;
  const assistantA = randomUUID();
  const assistantB = randomUUID();
  const room1 = `room-${randomUUID()}`;
  const room2 = `room-${randomUUID()}`;
  // Recent, whole seconds: well inside the retention window, whatever day the suite runs.
  const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  /** `base + seconds` as ISO text without zone, and in UTC+05:30. */
  const naive = (seconds: number) => new Date(base + seconds * 1000).toISOString().slice(0, 19);
  const plus0530 = (seconds: number) =>
    `${new Date(base + seconds * 1000 + 5.5 * 3_600_000).toISOString().slice(0, 19)}+05:30`;
  const types: LogType[] = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'];
  const seeds: Seed[] = [];

  const get = (user: TestUser, query: Record<string, string | number> = {}) =>
    ctx.http().get('/logs').query(query).set(user.auth);

  /** The seeds a filter should return, newest first (ties: later insert first). */
  const expected = (match: (s: Seed) => boolean) =>
    seeds
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => match(s))
      .sort((x, y) => y.s.at - x.s.at || y.i - x.i);

  beforeAll(async () => {
    ctx = await createTestApp();
    [alice, bob] = await Promise.all([ctx.newUser(), ctx.newUser()]);
    // 60 entries for alice: every type, both assistants, both rooms, both statuses; groups of three
    // share one timestamp so ordering must fall back on the id.
    for (let i = 0; i < 60; i += 1) {
      seeds.push({
        log_type: types[i % 3],
        status: i % 4 === 0 ? 'error' : 'success',
        assistant_id: i % 2 === 0 ? assistantA : assistantB,
        room_name: i % 5 === 0 ? room2 : room1,
        at: base + Math.floor(i / 3) * 1000,
      });
    }
    // Through the service, so the per-day counters that `total` sums are kept as in production.
    for (const [i, s] of seeds.entries()) {
      await record({
        user_id: alice.userId,
        log_type: s.log_type,
        status: s.status,
        assistant_id: s.assistant_id,
        room_name: s.room_name,
        timestamp: new Date(s.at),
        message: `entry ${i}`,
        request_data: { seq: i, url: 'https://example.com/hook' },
        response_data: { status_code: 200 },
        latency_ms: i,
      });
    }
    await record({
      user_id: bob.userId,
      log_type: 'tool_call',
      status: 'success',
      assistant_id: assistantA,
      room_name: room1,
      timestamp: new Date(base),
      message: 'bob only',
      request_data: {},
      response_data: {},
      latency_ms: 1,
    });
  });

  afterAll(() => ctx.close());

  async function record(entry: ActivityLogInput): Promise<void> {
    expect(await ctx.app.get(ActivityLogService).record(entry)).toMatch(/^\d+$/);
  }

  it('needs an API key', async () => {
    const res = await ctx.http().get('/logs').expect(401);
    expect(res.body.success).toBe(false);
  });

  it('returns the first page newest first with exactly the documented fields', async () => {
    const res = await get(alice).expect(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data.total).toBe(60);
    expect(res.body.data.page).toBe(1);
    expect(res.body.data.limit).toBe(50);
    const logs = res.body.data.logs as LogEntryDto[];
    expect(logs.length).toBe(50);
    expect(logs.map((l) => l.message)).toEqual(
      expected(() => true)
        .slice(0, 50)
        .map(({ i }) => `entry ${i}`),
    );
    const newest = expected(() => true)[0];
    expect(Object.keys(logs[0]).sort()).toEqual(ENTRY_KEYS);
    expect(logs[0]).toEqual({
      log_id: expect.stringMatching(/^\d+$/),
      log_type: newest.s.log_type,
      status: newest.s.status,
      assistant_id: newest.s.assistant_id,
      room_name: newest.s.room_name,
      timestamp: new Date(newest.s.at).toISOString(),
      message: `entry ${newest.i}`,
      request_data: { seq: newest.i, url: 'https://example.com/hook' },
      response_data: { status_code: 200 },
      latency_ms: newest.i,
      // Recorded without a class or trace: a failure is `internal`, and there is no trace.
      error_class: newest.s.status === 'error' ? 'internal' : null,
      trace_id: null,
      replay_of: null,
    });
    for (const log of logs)
      expect(log.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('pages through everything without repeats or gaps, ties broken consistently', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 9; page += 1) {
      const res = await get(alice, { page, limit: 7 }).expect(200);
      expect(res.body.data).toMatchObject({ total: 60, page, limit: 7 });
      expect(res.body.data.logs.length).toBe(page === 9 ? 4 : 7);
      seen.push(...(res.body.data.logs as LogEntryDto[]).map((l) => l.message));
    }
    expect(seen).toEqual(expected(() => true).map(({ i }) => `entry ${i}`));
    expect(new Set(seen).size).toBe(60);
    const beyond = await get(alice, { page: 10, limit: 7 }).expect(200);
    expect(beyond.body.data).toEqual({
      logs: [],
      total: 60,
      page: 10,
      limit: 7,
      next_cursor: null,
    });
  });

  it.each<[string, Record<string, string>, (s: Seed) => boolean]>([
    ['log_type', { log_type: 'end_call_webhook' }, (s) => s.log_type === 'end_call_webhook'],
    ['status', { status: 'error' }, (s) => s.status === 'error'],
    ['assistant_id', { assistant_id: 'B' }, (s) => s.assistant_id === 'B'],
    ['room_name', { room_name: 'room2' }, (s) => s.room_name === 'room2'],
    [
      'log_type + assistant_id + room_name',
      { log_type: 'tool_call', assistant_id: 'A', room_name: 'room1' },
      (s) => s.log_type === 'tool_call' && s.assistant_id === 'A' && s.room_name === 'room1',
    ],
    [
      'log_type + status',
      { log_type: 'inbound_context_lookup', status: 'success' },
      (s) => s.log_type === 'inbound_context_lookup' && s.status === 'success',
    ],
  ])('filters by %s', async (_, rawQuery, rawMatch) => {
    // Placeholders keep the table readable: A/B and room1/room2 stand for the generated values.
    const sub = (v: string | null) =>
      v === 'A'
        ? assistantA
        : v === 'B'
          ? assistantB
          : v === 'room1'
            ? room1
            : v === 'room2'
              ? room2
              : v;
    const unsub = (v: string | null) =>
      v === assistantA
        ? 'A'
        : v === assistantB
          ? 'B'
          : v === room1
            ? 'room1'
            : v === room2
              ? 'room2'
              : v;
    const query = Object.fromEntries(Object.entries(rawQuery).map(([k, v]) => [k, sub(v)!]));
    const match = (s: Seed) =>
      rawMatch({ ...s, assistant_id: unsub(s.assistant_id), room_name: unsub(s.room_name)! });
    const want = expected(match).map(({ i }) => `entry ${i}`);
    expect(want.length).toBeGreaterThan(0);
    const res = await get(alice, { ...query, limit: 100 }).expect(200);
    expect(res.body.data.total).toBe(want.length);
    expect((res.body.data.logs as LogEntryDto[]).map((l) => l.message)).toEqual(want);
  });

  /** Every entry a cursor walk of `query` yields, in order, checking `next_cursor` on the way. */
  async function walk(query: Record<string, string | number>): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    for (let step = 0; step < 100; step += 1) {
      const res = await get(alice, cursor ? { ...query, cursor } : query).expect(200);
      const logs = res.body.data.logs as LogEntryDto[];
      seen.push(...logs.map((l) => l.message));
      cursor = res.body.data.next_cursor as string | null;
      if (cursor === null) return seen;
      expect(logs.length).toBe(query.limit);
    }
    throw new Error('the cursor walk did not end');
  }

  it('walks every entry once by cursor, with next_cursor null exactly on the last page', async () => {
    const all = expected(() => true).map(({ i }) => `entry ${i}`);
    expect(await walk({ limit: 7 })).toEqual(all);
    // A page size that divides the total: the last full page already says there is no more.
    expect(await walk({ limit: 20 })).toEqual(all);
    const first = await get(alice, { limit: 100 }).expect(200);
    expect(first.body.data.next_cursor).toBeNull();
  });

  it('walks a filtered set by cursor (one index, and several combined)', async () => {
    const cases: [Record<string, string>, (s: Seed) => boolean][] = [
      [{ log_type: 'tool_call' }, (s) => s.log_type === 'tool_call'],
      [
        { log_type: 'tool_call', assistant_id: assistantA, status: 'success' },
        (s) =>
          s.log_type === 'tool_call' && s.assistant_id === assistantA && s.status === 'success',
      ],
      [
        { from: new Date(base + 4000).toISOString(), to: new Date(base + 12000).toISOString() },
        (s) => s.at >= base + 4000 && s.at <= base + 12000,
      ],
    ];
    for (const [query, match] of cases) {
      const want = expected(match).map(({ i }) => `entry ${i}`);
      expect(await walk({ ...query, limit: 2 })).toEqual(want);
    }
  });

  it('ignores page once a cursor is given', async () => {
    const first = await get(alice, { limit: 5 }).expect(200);
    const cursor = first.body.data.next_cursor as string;
    const byCursor = await get(alice, { limit: 5, cursor }).expect(200);
    const withPage = await get(alice, { limit: 5, cursor, page: 7 }).expect(200);
    expect(withPage.body.data.logs).toEqual(byCursor.body.data.logs);
    expect((byCursor.body.data.logs as LogEntryDto[]).map((l) => l.message)).toEqual(
      expected(() => true)
        .slice(5, 10)
        .map(({ i }) => `entry ${i}`),
    );
  });

  it('a cursor walk with entries written in between yields every older entry exactly once', async () => {
    const walker = await ctx.newUser();
    const service = ctx.app.get(ActivityLogService);
    const write = (message: string, at: Date) =>
      service.record({
        user_id: walker.userId,
        log_type: 'tool_call',
        status: 'success',
        assistant_id: null,
        room_name: room1,
        timestamp: at,
        message,
        request_data: {},
        response_data: {},
        latency_ms: 1,
      });
    // 25 entries, five per timestamp, so pages end in the middle of a tie.
    const start = base + 100_000;
    for (let i = 0; i < 25; i += 1)
      await write(`old ${i}`, new Date(start + Math.floor(i / 5) * 1000));
    const want = Array.from({ length: 25 }, (_, i) => i)
      .sort((a, b) => Math.floor(b / 5) - Math.floor(a / 5) || b - a)
      .map((i) => `old ${i}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let step = 0;
    do {
      const query: Record<string, string | number> = { limit: 4, log_type: 'tool_call' };
      if (cursor) query.cursor = cursor;
      const res = await ctx.http().get('/logs').query(query).set(walker.auth).expect(200);
      seen.push(...(res.body.data.logs as LogEntryDto[]).map((l) => l.message));
      cursor = res.body.data.next_cursor as string | null;
      // New entries between pages: newer ones, and one at the very timestamp the page ended on.
      const lastAt = (res.body.data.logs as LogEntryDto[]).at(-1)?.timestamp;
      await write(`new ${step} now`, new Date());
      if (lastAt) await write(`new ${step} tie`, new Date(lastAt));
      step += 1;
    } while (cursor && step < 50);
    expect(seen.filter((m) => m.startsWith('old'))).toEqual(want);
    // With offset pages the same inserts would shift entries forward and repeat them.
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by a time window, bounds inclusive', async () => {
    const from = new Date(base + 5000).toISOString();
    const to = new Date(base + 9000).toISOString();
    const want = expected((s) => s.at >= base + 5000 && s.at <= base + 9000).map(
      ({ i }) => `entry ${i}`,
    );
    expect(want.length).toBe(15); // seconds 5 to 9, three entries each
    const res = await get(alice, { from, to, limit: 100 }).expect(200);
    expect(res.body.data.total).toBe(want.length);
    expect((res.body.data.logs as LogEntryDto[]).map((l) => l.message)).toEqual(want);
  });

  it('reads a bound without a zone as UTC and accepts an offset', async () => {
    const utc = await get(alice, { from: naive(19), limit: 100 }).expect(200);
    const offset = await get(alice, { from: plus0530(19), limit: 100 }).expect(200);
    expect(utc.body.data.total).toBe(3);
    expect(offset.body.data.total).toBe(3);
  });

  it('another user sees only their own entries, and a new user nothing', async () => {
    const res = await get(bob, { limit: 100 }).expect(200);
    expect((res.body.data.logs as LogEntryDto[]).map((l) => l.message)).toEqual(['bob only']);
    const carol = await ctx.newUser();
    const none = await get(carol).expect(200);
    expect(none.body.data).toEqual({ logs: [], total: 0, page: 1, limit: 50, next_cursor: null });
    const filtered = await get(bob, { assistant_id: assistantB }).expect(200);
    expect(filtered.body.data.total).toBe(0);
  });

  it('accepts limit 1 and 100', async () => {
    expect((await get(alice, { limit: 1 }).expect(200)).body.data.logs.length).toBe(1);
    expect((await get(alice, { limit: 100 }).expect(200)).body.data.logs.length).toBe(60);
  });

  it.each<[Record<string, string>, string]>([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '2.5' }, 'limit'],
    [{ limit: 'many' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ page: '-3' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ log_type: 'sms' }, 'log_type'],
    [{ status: 'failed' }, 'status'],
    [{ assistant_id: 'nope' }, 'assistant_id'],
    [{ from: 'last tuesday' }, 'from'],
    [{ to: '2025-13-01T00:00:00Z' }, 'to'],
    [{ sort: 'asc' }, 'sort'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ cursor: Buffer.from('12.x').toString('base64url') }, 'cursor'],
  ])('answers 400 for %j', async (query, field) => {
    const res = await get(alice, query).expect(400);
    expect(res.body.success).toBe(false);
    expect((res.body.data.errors as { field: string }[]).map((e) => e.field)).toContain(field);
  });

  it('the retention job purges entries older than LOG_RETENTION_DAYS and keeps the rest', async () => {
    const dave = await ctx.newUser();
    const day = 86_400_000;
    const row = (ageDays: number, message: string) => ({
      user_id: dave.userId,
      log_type: 'tool_call' as const,
      status: 'success' as const,
      assistant_id: null,
      room_name: 'retention',
      timestamp: new Date(Date.now() - ageDays * day),
      message,
      request_data: {},
      response_data: {},
      latency_ms: 1,
    });
    for (const entry of [
      row(200, 'ancient'),
      row(91, 'just too old'),
      row(89, 'just in time'),
      row(0, 'fresh'),
    ]) {
      await record(entry);
    }
    const maintenance = ctx.app.get<JobQueue<MaintenanceJobData, PurgeResult>>(
      jobQueueToken(QUEUES.MAINTENANCE),
    );

    const result = await maintenance.request({ task: 'purge-activity-logs' }, { waitMs: 30_000 });

    expect(result.deleted).toBeGreaterThanOrEqual(2);
    const left = await get(dave, { limit: 100 }).expect(200);
    expect((left.body.data.logs as LogEntryDto[]).map((l) => l.message)).toEqual([
      'fresh',
      'just in time',
    ]);
    // Everything seeded above for the other users is recent and untouched.
    expect((await get(alice).expect(200)).body.data.total).toBe(60);
  });
  describe('GET /logs/timeline/:room_name', () => {
    const call = `call-${randomUUID()}`;
    const at = base + 200_000;
    const entry = (
      user: TestUser,
      log_type: LogType,
      seconds: number,
      request_data: Record<string, unknown>,
    ): ActivityLogInput => ({
      user_id: user.userId,
      log_type,
      status: 'success',
      assistant_id: assistantA,
      room_name: call,
      timestamp: new Date(at + seconds * 1000),
      message: `${log_type} at ${seconds}`,
      request_data,
      response_data: {},
      latency_ms: 5,
    });

    let dave: TestUser;
    let erin: TestUser;

    beforeAll(async () => {
      [dave, erin] = await Promise.all([ctx.newUser(), ctx.newUser()]);
      // Written out of order: the timeline orders by time, not by insertion.
      await record(entry(dave, 'end_call_webhook', 30, { webhook_id: 'msg_1' }));
      await record(entry(dave, 'tool_call', 10, { tool_id: 't1' }));
      await record(entry(dave, 'inbound_context_lookup', 0, { assistant_version: 3 }));
      await record(entry(dave, 'tool_call', 10, { tool_id: 't2' }));
      await record(entry(erin, 'tool_call', 5, { tool_id: 'bob' }));
    });

    it('answers the call with every entry, oldest first, and the version its lookup ran', async () => {
      const res = await ctx
        .http()
        .get(`/logs/timeline/${encodeURIComponent(call)}`)
        .set(dave.auth)
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        room_name: call,
        assistant_id: assistantA,
        assistant_version: 3,
      });
      expect((res.body.data.entries as LogEntryDto[]).map((l) => l.message)).toEqual([
        'inbound_context_lookup at 0',
        'tool_call at 10',
        'tool_call at 10',
        'end_call_webhook at 30',
      ]);
      const ties = (res.body.data.entries as LogEntryDto[]).filter(
        (l) => l.log_type === 'tool_call',
      );
      expect(ties.map((l) => l.request_data.tool_id)).toEqual(['t1', 't2']);
    });

    it('shows another user only their own entries of the room, and 404 when there are none', async () => {
      const forErin = await ctx.http().get(`/logs/timeline/${call}`).set(erin.auth).expect(200);
      expect(forErin.body.data.entries.map((l: LogEntryDto) => l.message)).toEqual([
        'tool_call at 5',
      ]);
      expect(forErin.body.data.assistant_version).toBeNull();
      const carol = await ctx.newUser();
      const none = await ctx.http().get(`/logs/timeline/${call}`).set(carol.auth).expect(404);
      expect(none.body.success).toBe(false);
      await ctx.http().get(`/logs/timeline/no-such-room`).set(dave.auth).expect(404);
    });

    it('needs a key, and names room_name when it is too long', async () => {
      await ctx.http().get(`/logs/timeline/${call}`).expect(401);
      const res = await ctx
        .http()
        .get(`/logs/timeline/${'r'.repeat(256)}`)
        .set(dave.auth)
        .expect(400);
      expect((res.body.data.errors as { field: string }[]).map((e) => e.field)).toEqual([
        'room_name',
      ]);
    });
  });
});
