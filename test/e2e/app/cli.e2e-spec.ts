import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('npm run cli -- create-key', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vac-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports one line per missing or invalid option, before touching any database', () => {
    const sqlitePath = join(dir, 'cli.sqlite');
    const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_PATH: sqlitePath, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const run = spawnSync(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        'src/cli.ts',
        'create-key',
        '--name',
        'Ada',
        '--scopes',
        'config,admin',
      ],
      { env, encoding: 'utf8', timeout: 90_000 },
    );
    expect(run.status).toBe(2);
    const problems = run.stderr
      .split('Usage:')[0]
      .split('\n')
      .filter((line) => /^ {2}--/.test(line));
    // --email is missing: "required", and not also "must be an email".
    expect(problems).toEqual([
      '  --email (user_email): user_email is required',
      '  --scopes (scopes): each value in scopes must be one of: config, runtime',
    ]);
    expect(run.stderr).toContain('Usage:');
    expect(existsSync(sqlitePath)).toBe(false);
  }, 120_000);
});
