/**
 * A secret delete holds the secret's row lock while it reads `used_by`. Saves that reference the
 * secret queue behind that lock, each holding a pool connection. Were `used_by` read on other pool
 * connections, a delete queued behind one in-flight save, with enough saves queued behind it to
 * take the rest of the pool, would get the lock and then wait for connections that the saves
 * waiting on its lock hold: everyone waits until MySQL's lock wait timeout (50 s) and the saves
 * fail. Row locks exist on MySQL only.
 */
import { createConnection, type Connection } from 'mysql2/promise';
import { secretApi } from '../../api/secret-api';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';

const databaseUrl = process.env.DATABASE_URL;
const POOL_SIZE = 10;
/** More than the pool: every connection ends up held by the delete or a save waiting on the row. */
const SAVES = 12;
/** Without the stall the delete and the saves answer well within this; with it, after 50 s. */
const ANSWER_LIMIT_MS = 10_000;

const describeMysql = databaseUrl ? describe : describe.skip;

describeMysql('secret delete behind a save, saves queued behind it (MySQL)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let server: CustomerServer;
  let outside: Connection;

  beforeAll(async () => {
    server = await startCustomerServer();
    // A request timeout longer than MySQL's lock wait, so a stall shows as one.
    ctx = await createTestApp({
      env: { DB_POOL_SIZE: String(POOL_SIZE), REQUEST_TIMEOUT_MS: '60000' },
    });
    user = await ctx.newUser();
    outside = await createConnection(databaseUrl!);
  });
  afterAll(async () => {
    await outside?.end();
    await ctx?.close();
    await server?.close();
  });

  const save = (k: number, name: string) =>
    ctx
      .http()
      .post('/tool/create')
      .set(user.auth)
      .send({
        tool_name: `pool_${k}`,
        tool_description: 'Looks up a customer',
        tool_execution_type: 'webhook',
        tool_execution_config: {
          url: server.url('/hook'),
          headers: { Authorization: `Bearer {{secret.${name}}}` },
        },
      })
      .then((res) => res.status);

  /** The service's statements waiting to lock the secret's row (the delete's and the saves'). */
  async function waitingOnRow(): Promise<number> {
    const [rows] = await outside.query(
      `SELECT COUNT(*) AS n FROM information_schema.processlist
       WHERE db = DATABASE() AND id <> CONNECTION_ID() AND info LIKE '%secrets%FOR UPDATE'`,
    );
    return Number((rows as { n: number | string }[])[0].n);
  }

  async function until(count: number): Promise<void> {
    for (let waited = 0; (await waitingOnRow()) < count && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it(`answers the delete and ${SAVES} saves once the save before them commits`, async () => {
    const name = 'POOL_STALL';
    await secretApi(ctx, user).create(name, 'pool-value');
    // A save in flight, from outside the service's pool, holding the secret's row as
    // `holdNames` does until it commits.
    await outside.beginTransaction();
    await outside.query(
      'SELECT secret_id FROM secrets WHERE user_id = ? AND secret_name = ? FOR UPDATE',
      [user.userId, name],
    );
    const deletion = ctx
      .http()
      .delete(`/secret/delete/${name}`)
      .set(user.auth)
      .then((res) => res.status);
    await until(1);
    const saves = Promise.all(Array.from({ length: SAVES }, (_, k) => save(k, name)));
    // The delete first in the row's queue, then saves until they hold the rest of the pool.
    await until(POOL_SIZE);
    expect(await waitingOnRow()).toBe(POOL_SIZE);
    const released = Date.now();
    await outside.commit();
    const [deleted, saved] = await Promise.all([deletion, saves]);
    expect(Date.now() - released).toBeLessThan(ANSWER_LIMIT_MS);
    // Nothing referenced the secret: the delete succeeds and every save then finds it gone.
    expect(deleted).toBe(200);
    expect(saved).toEqual(new Array<number>(SAVES).fill(400));
  }, 120_000);
});
