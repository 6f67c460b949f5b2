import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { staticToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { appSuite } from '../../utils/create-test-app';

/**
 * `Idempotency-Key`s and room names are compared byte for byte on MySQL as on SQLite: keys that
 * differ only in case, an accent or a trailing space are different keys, and a room's log filter
 * finds that room only.
 */
describe('binary comparison of Idempotency-Key and room names (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });
  let producer: CallProducer;

  beforeAll(() => {
    producer = new CallProducer(suite.ctx);
  });

  afterAll(async () => {
    await producer?.close();
  });

  it('takes keys that differ only in case for different keys', async () => {
    // Letters after the prefix too: a hex slice of digits only would make two of the keys equal.
    const base = `key-${randomUUID().slice(0, 8)}-abc`;
    const answers = [];
    // Keys are printable ASCII (and a header loses trailing spaces): case is what a _ci collation merges.
    for (const key of [
      base,
      base.toUpperCase(),
      `${base.slice(0, 4).toUpperCase()}${base.slice(4)}`,
    ]) {
      const res = await suite.ctx
        .http()
        .post('/assistant/create')
        .set(suite.alice.auth)
        .set('Idempotency-Key', key)
        .send(assistantBody({ assistant_name: `For ${key}` }));
      answers.push(res);
    }
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set(answers.map((r) => r.body.data.assistant_id as string)).size).toBe(
      answers.length,
    );
  });

  it("filters the log by a room's exact name", async () => {
    const { assistant_id } = await assistantApi(suite.ctx, suite.alice).create();
    const { tool_id } = await toolApi(suite.ctx, suite.alice).create(staticToolBody('fixed', 1));
    await toolApi(suite.ctx, suite.alice).attach(assistant_id, [tool_id]);
    const base = `room-${randomUUID().slice(0, 8)}`;
    const rooms = [base, base.toUpperCase(), `${base}é`, `${base}e`, `${base} `];
    for (const room_name of rooms)
      await producer.run(QUEUES.TOOL_CALL, { tool_id, assistant_id, room_name, arguments: {} });
    for (const room_name of rooms) {
      const { logs } = await logsApi(suite.ctx, suite.alice).page({ room_name });
      expect(logs.map((l) => l.room_name)).toEqual([room_name]);
    }
  });

  // Every column that holds a room name or a key, today's and any added later, on MySQL.
  (process.env.DATABASE_URL ? it : it.skip)(
    'stores every room name and Idempotency-Key column with a binary collation',
    async () => {
      const columns = await suite.ctx.dataSource.query<
        { t: string; c: string; collation: string }[]
      >(
        `SELECT table_name AS t, column_name AS c, collation_name AS collation
           FROM information_schema.columns
          WHERE table_schema = DATABASE() AND column_name IN ('room_name', 'idempotency_key')`,
      );
      expect(columns.length).toBeGreaterThanOrEqual(3);
      for (const column of columns)
        expect({ ...column, collation: /_bin$/.test(column.collation) }).toEqual({
          ...column,
          collation: true,
        });
    },
  );
});
