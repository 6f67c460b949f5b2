/**
 * What the service log holds when a write fails: the error's class, its code and the `error_id`
 * the client got, never the statement's parameters (provider keys and header values, sent or
 * stored). The database is made to refuse one assistant name with a trigger, so a real driver
 * error goes through the real exception filter and logger, on SQLite and on MySQL alike.
 */
import { randomBytes } from 'node:crypto';
import { Logger } from 'nestjs-pino';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { captureStdout, type LogCapture } from '../../utils/log-capture';

const tag = randomBytes(6).toString('hex');
const REFUSED_NAME = `refused-by-trigger-${tag}`;
const SENT_KEY = `sk_sent_${tag}_PROVIDERKEY0001`;
const STORED_KEY = `sk_stored_${tag}_PROVIDERKEY0002`;
const LLM_KEY = `sk_llm_${tag}_PROVIDERKEY0003`;
const TRIGGERS = [`refuse_insert_${tag}`, `refuse_update_${tag}`];

/** An assistant whose stored provider key must never reach the log. */
const assistantWithKey = (extra: Record<string, unknown> = {}) =>
  assistantBody({ assistant_tts_config: { voice_id: 'voice-1', api_key: STORED_KEY }, ...extra });

/** Makes every INSERT and UPDATE of an assistant named `REFUSED_NAME` fail in the database. */
async function installTriggers(ctx: TestContext): Promise<void> {
  const [insert, update] = TRIGGERS;
  if (ctx.dataSource.options.type === 'mysql') {
    for (const [name, event] of [
      [insert, 'INSERT'],
      [update, 'UPDATE'],
    ])
      await ctx.dataSource.query(
        `CREATE TRIGGER ${name} BEFORE ${event} ON assistants FOR EACH ROW BEGIN ` +
          `IF NEW.assistant_name = '${REFUSED_NAME}' THEN ` +
          `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'write refused by a test trigger'; END IF; END`,
      );
    return;
  }
  for (const [name, event] of [
    [insert, 'INSERT'],
    [update, 'UPDATE'],
  ])
    await ctx.dataSource.query(
      `CREATE TRIGGER ${name} BEFORE ${event} ON assistants WHEN NEW.assistant_name = '${REFUSED_NAME}' ` +
        `BEGIN SELECT RAISE(ABORT, 'write refused by a test trigger'); END`,
    );
}

describe('Service log after a failed write (e2e)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let log: LogCapture;

  beforeAll(async () => {
    log = captureStdout();
    ctx = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
    ctx.app.useLogger(ctx.app.get(Logger));
    await installTriggers(ctx);
    user = await ctx.newUser();
  });
  afterAll(async () => {
    log.restore();
    for (const name of TRIGGERS) await ctx.dataSource.query(`DROP TRIGGER IF EXISTS ${name}`);
    await ctx.close();
  });

  /** The log lines (pino JSON) that carry `errorId`. */
  const linesOf = (errorId: string) =>
    log
      .text()
      .split('\n')
      .filter((line) => line.includes(errorId));

  it('a failed create is logged by class, code and error_id; the keys it sent are not in the log', async () => {
    const res = await ctx
      .http()
      .post('/assistant/create')
      .set(user.auth)
      .send(
        assistantWithKey({
          assistant_name: REFUSED_NAME,
          assistant_tts_config: { voice_id: 'voice-1', api_key: SENT_KEY },
          assistant_llm_config: { api_key: LLM_KEY },
        }),
      );
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal server error');
    const errorId = res.body.data.error_id as string;

    const lines = linesOf(errorId);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]) as {
      err: Record<string, unknown>;
      msg: string;
      context: string;
      req: Record<string, unknown>;
    };
    expect(entry.msg).toBe('unhandled error');
    expect(entry.context).toBe('ExceptionFilter');
    // The line names the request it belongs to, by the id the client got back.
    expect(entry.req).toEqual({
      id: res.headers['x-request-id'],
      method: 'POST',
      url: '/assistant/create',
    });
    expect(entry.err).toMatchObject({ type: 'QueryFailedError', code: expect.any(String) });
    const text = log.text();
    expect(text).not.toContain(SENT_KEY);
    expect(text).not.toContain(LLM_KEY);
    expect(text).not.toContain('INSERT INTO');
  });

  it('a failed update is logged without the stored keys the statement carried', async () => {
    const id = (await assistantApi(ctx, user).create(assistantWithKey())).assistant_id;
    const res = await ctx
      .http()
      .patch(`/assistant/update/${id}`)
      .set(user.auth)
      .send({ assistant_name: REFUSED_NAME, assistant_tts_config: { voice_id: 'voice-2' } });
    expect(res.status).toBe(500);
    expect(linesOf(res.body.data.error_id as string)).toHaveLength(1);
    const text = log.text();
    expect(text).not.toContain(STORED_KEY);
    expect(text).not.toContain('UPDATE ');
    // The capture works: the request lines of the calls above are in it.
    expect(text).toContain(`/assistant/update/${id}`);
  });
});
