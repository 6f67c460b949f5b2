/** Property tests for POST /auth/create-key and the query string of GET /logs. */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ActivityLogEntity } from '../../src/activity-log/activity-log.entity';
import { UserEntity } from '../../src/auth/user.entity';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import {
  LOG_TYPES,
  applyMutation,
  createKeyArb,
  fuzzParams,
  fuzzTimeout,
  logsQueryArb,
  mutationArb,
  type BodySpec,
  type Mutation,
} from '../utils/arbitraries';
import {
  describeResponse,
  expectClientOutcome,
  expectEnvelope,
  expectRejected,
} from './fuzz-harness';

const ADMIN = process.env.ADMIN_API_KEY!;

describe('POST /auth/create-key (fuzz)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  const createKey = (body: unknown) =>
    ctx
      .http()
      .post('/auth/create-key')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send(body as object);
  const usersWith = (email: unknown) =>
    // Emails are stored trimmed and lower-cased.
    typeof email === 'string' && email.length <= 254
      ? ctx.dataSource
          .getRepository(UserEntity)
          .count({ where: { user_email: email.trim().toLowerCase() } })
      : Promise.resolve(0);

  const spec: BodySpec = {
    fields: () => [
      { path: ['user_name'], kind: 'string', max: 100 },
      { path: ['user_email'], kind: 'string', max: 254 },
      { path: ['org_name'], kind: 'string', max: 100 },
    ],
    required: () => [['user_name'], ['user_email']],
    closedObjects: () => [[]],
    outOfRange: () => [
      { label: 'not an email', path: ['user_email'], value: 'not-an-email' },
      { label: 'not an email', path: ['user_email'], value: 'a@' },
      {
        label: 'email over 254',
        path: ['user_email'],
        value: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
      },
      { label: 'empty name', path: ['user_name'], value: '' },
      { label: 'name over 100', path: ['user_name'], value: 'n'.repeat(101) },
      { label: 'org over 100', path: ['org_name'], value: '😀'.repeat(101) },
      { label: 'empty org', path: ['org_name'], value: '' },
    ],
  };

  it(
    'valid bodies → 200 with a working key, and one user for the email',
    async () => {
      await fc.assert(
        fc.asyncProperty(createKeyArb(), async (body) => {
          const res = await createKey(body);
          expectEnvelope(res);
          if (res.status !== 200) throw new Error(`valid body refused: ${describeResponse(res)}`);
          const { api_key, user_id } = res.body.data as { api_key: string; user_id: string };
          expect(api_key).toMatch(/^vac_/);
          expect(user_id).toMatch(/^[0-9a-f-]{36}$/);
          expect(
            (await ctx.http().get('/auth/check-key').set('Authorization', `Bearer ${api_key}`))
              .status,
          ).toBe(200);
          expect(await usersWith(body.user_email)).toBe(1);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'mutated bodies → 4xx naming the field, and no user is written',
    async () => {
      const arb = createKeyArb().chain((body) =>
        mutationArb(spec, body).map((mutation) => ({ body, mutation })),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ body, mutation }) => {
          const sent = applyMutation(body, mutation);
          expectRejected(await createKey(sent), mutation);
          expect(await usersWith(body.user_email)).toBe(0);
          expect(await usersWith(sent.user_email)).toBe(0);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );
});

describe('GET /logs query strings (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;
  const assistants = [randomUUID(), randomUUID()];
  const rooms = ['room-a', 'room-b 😀'];

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    const repo = ctx.dataSource.getRepository(ActivityLogEntity);
    const base = Date.UTC(2030, 0, 1);
    const rows = Array.from({ length: 24 }, (_, i) =>
      repo.create({
        user_id: user.userId,
        log_type: LOG_TYPES[i % 3],
        status: i % 2 === 0 ? 'success' : 'error',
        assistant_id: assistants[i % 2],
        room_name: rooms[i % 2],
        timestamp: new Date(base + i * 60_000),
        message: `entry ${i}`,
        request_data: {},
        response_data: {},
        latency_ms: i,
      }),
    );
    await repo.save(rows);
  });
  afterAll(() => ctx.close());

  const logs = (query: string) => ctx.http().get(`/logs${query}`).set(user.auth);
  const qs = (params: Record<string, string>) => {
    const s = new URLSearchParams(params).toString();
    return s ? `?${s}` : '';
  };

  it(
    'valid queries → 200; every entry matches the filters; page and limit echo',
    async () => {
      await fc.assert(
        fc.asyncProperty(logsQueryArb([...assistants, randomUUID()]), async (query) => {
          const res = await logs(qs(query));
          expectEnvelope(res);
          if (res.status !== 200) throw new Error(`valid query refused: ${describeResponse(res)}`);
          const data = res.body.data as {
            logs: Record<string, unknown>[];
            total: number;
            page: number;
            limit: number;
          };
          expect(data.page).toBe(Number(query.page ?? 1));
          expect(data.limit).toBe(Number(query.limit ?? 50));
          expect(Number.isInteger(data.total)).toBe(true);
          expect(data.logs.length).toBeLessThanOrEqual(data.limit);
          for (const entry of data.logs) {
            if (query.log_type) expect(entry.log_type).toBe(query.log_type);
            if (query.status) expect(entry.status).toBe(query.status);
            if (query.assistant_id) expect(entry.assistant_id).toBe(query.assistant_id);
            if (query.room_name) expect(entry.room_name).toBe(query.room_name);
            if (query.from)
              expect(Date.parse(entry.timestamp as string)).toBeGreaterThanOrEqual(
                Date.parse(query.from),
              );
            if (query.to)
              expect(Date.parse(entry.timestamp as string)).toBeLessThanOrEqual(
                Date.parse(query.to),
              );
          }
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  const badParam: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.constantFrom<[string, string]>(
      ['page', '0'],
      ['page', '-1'],
      ['page', '1.5'],
      ['page', 'abc'],
      ['page', ''],
      ['page', '1e400'],
      ['limit', '0'],
      ['limit', '101'],
      ['limit', '-5'],
      ['limit', 'ten'],
      ['limit', '50.5'],
      ['log_type', 'tool'],
      ['log_type', 'TOOL_CALL'],
      ['log_type', 'tool_call\u0000'],
      ['status', 'ok'],
      ['assistant_id', 'not-a-uuid'],
      ['assistant_id', '😀'],
      ['room_name', ''],
      ['room_name', 'r'.repeat(256)],
      ['from', 'yesterday'],
      ['to', '2024-13-45T00:00:00Z'],
    ),
    fc.string({ minLength: 1, maxLength: 12 }).map((k): [string, string] => [`x_${k}`, '1']),
  );

  it(
    'invalid parameters → 400 naming the parameter (repeated parameters too)',
    async () => {
      await fc.assert(
        fc.asyncProperty(badParam, fc.boolean(), async ([key, value], repeat) => {
          const query = `?${new URLSearchParams([[key, value]]).toString()}${repeat && !key.startsWith('x_') ? `&${encodeURIComponent(key)}=1` : ''}`;
          const mutation: Mutation = { label: `bad ${key}`, path: [key], value };
          expectRejected(await logs(query), mutation);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'arbitrary query strings → never a 500',
    async () => {
      const raw = fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              'page',
              'limit',
              'log_type',
              'assistant_id',
              'room_name',
              'status',
              'from',
              'to',
              'page[]',
              'limit[a]',
            ),
            fc.string({ maxLength: 8 }),
          ),
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.string({ unit: 'binary', maxLength: 20 }),
            fc.constantFrom('%', '%zz', '%00', '1%201', '[]', '{}'),
          ),
        ),
        { maxLength: 6 },
      );
      await fc.assert(
        fc.asyncProperty(raw, async (pairs) => {
          const query = pairs
            .map(([k, v]) => `${encodeURIComponent(k)}=${/%/.test(v) ? v : encodeURIComponent(v)}`)
            .join('&');
          const res = await logs(query ? `?${query}` : '');
          expectClientOutcome(res);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );
});
