/**
 * A first run against MySQL, as the built service meets it: a database that does not exist yet is
 * created; a server that is not there is one clear line and a quick exit, not silence and stacks.
 * Needs the local MySQL/MariaDB (`MYSQL_ADMIN_URL`, default mysql://root@127.0.0.1:3306).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');
const ADMIN_URL = process.env.MYSQL_ADMIN_URL ?? 'mysql://root@127.0.0.1:3306';

interface Run {
  code: number | null;
  output: string;
}

/** Starts `node dist/main.js`; resolves when it exits, or after `stopAfter` answers /health. */
async function run(
  env: Record<string, string>,
  stopOnHealth: boolean,
): Promise<Run & { healthy: boolean }> {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      PORT: String(port),
      // The secret store's key: required with MySQL.
      SECRETS_ENCRYPTION_KEY: 'dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let healthy = false;
  while (stopOnHealth && child.exitCode === null && Date.now() - started < 60_000) {
    healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (healthy) child.kill('SIGTERM');
  const code = await exited;
  return { code, output, healthy };
}

describe('First run against MySQL (built service)', () => {
  const database = `vac_first_run_${randomBytes(4).toString('hex')}`;

  afterAll(async () => {
    const admin = await createConnection(ADMIN_URL);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('creates a database that does not exist yet, then serves', async () => {
    const result = await run({ DATABASE_URL: `${ADMIN_URL}/${database}` }, true);
    expect(result.healthy).toBe(true);
    expect(result.output).toContain(`created MySQL database \\"${database}\\" (utf8mb4)`);
    const admin = await createConnection(ADMIN_URL);
    const [rows] = await admin.query(
      'SELECT DEFAULT_CHARACTER_SET_NAME AS charset FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [database],
    );
    await admin.end();
    expect(rows).toEqual([{ charset: 'utf8mb4' }]);
  });

  it('says in one line at once, that the server is not reachable', async () => {
    const port = await freePort();
    const result = await run({ DATABASE_URL: `mysql://root@127.0.0.1:${port}/vac` }, false);
    expect(result.code).toBe(1);
    expect(result.output.trim()).toBe(
      `Startup failed: MySQL at 127.0.0.1:${port} is not reachable (ECONNREFUSED): start it, or point DATABASE_URL at a running server`,
    );
  });

  it('says in one line at once, what to run when the user may not create the database', async () => {
    const user = `vac_no_create_${randomBytes(4).toString('hex')}`;
    const admin = await createConnection(ADMIN_URL);
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw-${user}'`);
    try {
      const url = new URL(ADMIN_URL);
      url.username = user;
      url.password = `pw-${user}`;
      url.pathname = `/${database}_denied`;
      const result = await run({ DATABASE_URL: url.toString() }, false);
      expect(result.code).toBe(1);
      expect(result.output.trim()).toBe(
        `Startup failed: database "${database}_denied" does not exist and user "${user}" may not create it: ` +
          `run CREATE DATABASE \`${database}_denied\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
    } finally {
      await admin.query(`DROP USER '${user}'@'%'`);
      await admin.end();
    }
  });

  it('says in one line at once, that the password is wrong', async () => {
    const admin = new URL(ADMIN_URL);
    admin.username = admin.username || 'root';
    admin.password = 'not-the-password';
    admin.pathname = '/vac';
    const result = await run({ DATABASE_URL: admin.toString() }, false);
    expect(result.code).toBe(1);
    expect(result.output.trim()).toBe(
      `Startup failed: MySQL at ${admin.hostname}:${admin.port || 3306} refused user "${admin.username}": check the user and password in DATABASE_URL`,
    );
  });
});
