import { ActivityLogService } from '../../src/activity-log/activity-log.service';
import { assistantApi } from '../api/assistant-api';
import { dataOf } from '../api/envelope';
import { logsApi } from '../api/logs-api';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import { PrivateMariaDb, waitUntil } from './support/services';

const DATABASE = 'vac_replica';

/**
 * A primary MariaDB (binary log on) and a second one replicating from it, both private servers on
 * free loopback ports; the API (role `all`, in-process jobs) with `DATABASE_URL` on the primary and
 * `DATABASE_REPLICA_URLS` on the replica. With the replica's SQL thread stopped, the replica lags:
 * `GET /logs` (list, count, timeline) does not show an entry written since, while a configuration
 * read right after a write, and a version read right after it is published, are current.
 */
describe('MySQL read replica: logs read from the replica, configuration from the primary', () => {
  let primary: PrivateMariaDb;
  let replica: PrivateMariaDb;
  let ctx: TestContext;
  let user: TestUser;
  const figures: Record<string, unknown> = {};

  const onReplica = (sql: string) => replica.query(sql);
  const record = (room: string, message: string) =>
    ctx.app.get(ActivityLogService).record({
      user_id: user.userId,
      log_type: 'tool_call',
      status: 'success',
      assistant_id: null,
      room_name: room,
      message,
      request_data: {},
      response_data: {},
      latency_ms: 1,
    });
  const messages = async (room?: string) =>
    (await logsApi(ctx, user).page({ limit: 100, ...(room ? { room_name: room } : {}) })).logs.map(
      (entry) => entry.message,
    );

  beforeAll(async () => {
    primary = await PrivateMariaDb.start(null, { serverId: 1, logBin: true });
    replica = await PrivateMariaDb.start(null, { serverId: 2 });
    const [file] = (await primary.query('SHOW BINARY LOGS')).trim().split(/\s+/);
    await primary.query(
      `CREATE DATABASE \`${DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await onReplica(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, ` +
        `MASTER_USER='root', MASTER_PASSWORD='', MASTER_LOG_FILE='${file}', MASTER_LOG_POS=4; START SLAVE`,
    );
    await waitUntil(
      'the replica to hold the database',
      async () => (await onReplica('SHOW DATABASES')).split('\n').includes(DATABASE),
      30_000,
    );
    ctx = await createTestApp({
      env: {
        DATABASE_URL: primary.url(DATABASE),
        DATABASE_REPLICA_URLS: replica.url(DATABASE),
        DB_MIGRATIONS_RUN: 'true',
        REDIS_URL: undefined,
      },
    });
    user = await ctx.newUser();
  }, 180_000);

  afterAll(async () => {
    console.log(`[faults] mysql-replica: ${JSON.stringify(figures)}`);
    await ctx?.close().catch(() => undefined);
    await Promise.all([replica?.dispose(), primary?.dispose()]);
  }, 60_000);

  it('reads logs from the replica: an entry written while its SQL thread is stopped is not there until it runs again', async () => {
    await record('room-before', 'before the stop');
    figures.caughtUpMs = await waitUntil(
      'the replica to hold the first entry',
      async () => (await messages()).includes('before the stop'),
      15_000,
    );

    await onReplica('STOP SLAVE SQL_THREAD');
    await record('room-during', 'while stopped');
    // On the primary at once.
    expect(await primary.query(`SELECT message FROM \`${DATABASE}\`.activity_logs`)).toContain(
      'while stopped',
    );
    const page = await logsApi(ctx, user).page({ limit: 100 });
    expect(page.logs.map((entry) => entry.message)).toEqual(['before the stop']);
    expect(page.total).toBe(1);
    expect(await messages('room-during')).toEqual([]);
    await ctx.http().get('/logs/timeline/room-during').set(user.auth).expect(404);

    const ready = await ctx.http().get('/health/ready').expect(200);
    expect(ready.body.data.details.database_replica_0).toMatchObject({
      status: 'up',
      host: `127.0.0.1:${replica.port}`,
      lag_seconds: null,
    });
    figures.replicaHealth = ready.body.data.details.database_replica_0;

    await onReplica('START SLAVE SQL_THREAD');
    figures.resumedMs = await waitUntil(
      'the replica to catch up',
      async () => (await messages()).includes('while stopped'),
      15_000,
    );
    await ctx.http().get('/logs/timeline/room-during').set(user.auth).expect(200);
  });

  it('reads configuration right after a write from the primary, while the replica lags', async () => {
    await onReplica('STOP SLAVE SQL_THREAD');
    try {
      const assistants = assistantApi(ctx, user);
      const { assistant_id: id } = await assistants.create();
      expect((await assistants.details(id)).assistant_id).toBe(id);

      await ctx
        .http()
        .patch(`/assistant/update/${id}`)
        .set(user.auth)
        .send({ assistant_name: 'Renamed at once' })
        .expect(200);
      expect((await assistants.details(id)).assistant_name).toBe('Renamed at once');

      const version = await dataOf<{ version: number }>(
        'POST /assistant/publish',
        ctx.http().post(`/assistant/publish/${id}`).set(user.auth).send({}),
      );
      const published = await dataOf<{ assistant_name: string }>(
        'GET /assistant/details?version',
        ctx
          .http()
          .get(`/assistant/details/${id}`)
          .query({ version: version.version })
          .set(user.auth),
      );
      expect(published.assistant_name).toBe('Renamed at once');
      // The replica has none of it: every read above came from the primary.
      expect(
        await onReplica(
          `SELECT COUNT(*) FROM \`${DATABASE}\`.assistants WHERE assistant_id = '${id}'`,
        ),
      ).toBe('0\n');
    } finally {
      await onReplica('START SLAVE SQL_THREAD');
    }
  });

  it('serves the logs from the primary while the replica is down, and reports it', async () => {
    await replica.stop();
    const page = await logsApi(ctx, user).page({ limit: 100 });
    expect(page.logs.map((entry) => entry.message)).toContain('while stopped');
    const health = await ctx.http().get('/health/ready').expect(200);
    expect(health.body.data.details.database_replica_0).toMatchObject({ status: 'down' });
  });
});
