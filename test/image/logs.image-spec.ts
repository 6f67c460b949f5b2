/**
 * What `node dist/main.js` prints, as an operator sees it: JSON lines when stdout is a pipe,
 * readable lines with local time under LOG_FORMAT=pretty; one summary line at boot instead of a
 * line per module; and on SIGTERM, what it waits for and when it is done.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');

/** Starts the built API (embedded SQLite, in-process jobs) with stdout piped; stops it with SIGTERM once /health answers. */
async function startAndStop(
  env: Record<string, string>,
): Promise<{ code: number | null; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vac-logs-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'info',
      PORT: String(port),
      SQLITE_PATH: join(dataDir, 'service.sqlite'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const started = Date.now();
  while (child.exitCode === null && Date.now() - started < 60_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  const code = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  return { code, lines: stdout.split('\n').filter((line) => line.trim() !== '') };
}

describe('Log output of the built service', () => {
  it('is one JSON object per line when stdout is not a terminal', async () => {
    const { code, lines } = await startAndStop({});
    expect(code).toBe(0);
    const entries = lines.map((line) => JSON.parse(line) as { msg: string; context?: string });
    const messages = entries.map((e) => e.msg);
    expect(messages.filter((m) => m.startsWith('API listening on'))).toHaveLength(1);
    // Nest's one-line-per-module and per-route start-up lines stay at debug.
    expect(
      entries.filter((e) =>
        ['InstanceLoader', 'RouterExplorer', 'RoutesResolver'].includes(e.context ?? ''),
      ),
    ).toEqual([]);
    // One line says the process stops and what it waits for; no module repeats it.
    expect(messages.filter((m) => m.startsWith('Shutting down'))).toHaveLength(1);
    expect(messages).toContain(
      'Shutting down on SIGTERM: waiting for in-flight HTTP requests and running jobs, then closing the queue workers and the database (at most 25000 ms, SHUTDOWN_GRACE_MS)',
    );
    expect(messages.at(-1)).toMatch(/^Stopped \d+ ms after SIGTERM \(exit code 0\)$/);
  });

  it('is readable, with local time, under LOG_FORMAT=pretty', async () => {
    const { code, lines } = await startAndStop({ LOG_FORMAT: 'pretty' });
    expect(code).toBe(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).toThrow();
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: API listening on http:\/\/localhost:\d+ /,
      ),
    );
    // The last line survives the exit: the pretty transport is flushed before the process ends.
    expect(lines.at(-1)).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Stopped \d+ ms after SIGTERM/);
  });
});
