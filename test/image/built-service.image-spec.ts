import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** Runs `node <args>` as the image's non-root user would: as nobody when the test runs as root. */
function nodeCommand(args: string[]): [string, string[]] {
  return asRoot
    ? [
        'setpriv',
        ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', process.execPath, ...args],
      ]
    : [process.execPath, args];
}

/** The environment of an embedded-mode container: no database or Redis URL inherited. */
function imageEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    SQLITE_PATH: join(dataDir, 'voice-assistant.sqlite'),
    ...extra,
  };
}

describe('The built service, as the image runs it', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(() => {
    if (
      !existsSync(join(ROOT, 'dist/main.js')) ||
      !existsSync(join(ROOT, 'dist/data-source.js'))
    )
      throw new Error('dist/ is missing or stale: run `npm run build` first');
  });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vac-image-'));
    if (asRoot) chownSync(dataDir, NOBODY, NOBODY);
  });

  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies the compiled migrations with the compiled data source (migration:run from the image)', () => {
    const compiled = readdirSync(join(ROOT, 'dist/database/migrations/sqlite')).filter((f) =>
      f.endsWith('.js'),
    );
    expect(compiled.length).toBeGreaterThan(0);
    const cli = join(ROOT, 'node_modules/typeorm/cli.js');
    const [cmd, args] = nodeCommand([cli, 'migration:show', '-d', 'dist/data-source.js']);
    const shown = spawnSync(cmd, args, {
      cwd: ROOT,
      env: imageEnv(dataDir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(shown.stderr).toBe('');
    for (const file of compiled) {
      const name = /^\d+-(.+)\.js$/.exec(file)![1];
      expect(shown.stdout).toMatch(new RegExp(`\\[ \\] ${name}\\d+`));
    }
    const [runCmd, runArgs] = nodeCommand([
      cli,
      'migration:run',
      '-d',
      'dist/data-source.js',
    ]);
    const run = spawnSync(runCmd, runArgs, {
      cwd: ROOT,
      env: imageEnv(dataDir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/has been executed successfully/);
  });

  it('prints the CLI usage on --help', () => {
    const [cmd, args] = nodeCommand(['dist/cli.js', '--help']);
    const help = spawnSync(cmd, args, {
      cwd: ROOT,
      env: imageEnv(dataDir),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage:\n.*create-key --name/);
  });

  it('starts `node dist/main.js` as a non-root user with an empty data directory and answers /health 200', async () => {
    const port = await freePort();
    const [cmd, args] = nodeCommand(['dist/main.js']);
    child = spawn(cmd, args, {
      cwd: ROOT,
      env: imageEnv(dataDir, { PORT: String(port) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 60_000;
    let status = 0;
    let body: { data?: { status?: string } } = {};
    while (Date.now() < deadline && child.exitCode === null) {
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (res) {
        status = res.status;
        body = (await res.json()) as typeof body;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect({ status, exit: child.exitCode, output: status === 200 ? '' : output }).toEqual({
      status: 200,
      exit: null,
      output: '',
    });
    expect(body.data?.status).toBe('ok');
    const database = statSync(join(dataDir, 'voice-assistant.sqlite'));
    if (asRoot) expect(database.uid).toBe(NOBODY);
  });
});
