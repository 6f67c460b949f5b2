/**
 * Swagger UI as a new user meets it, in a real browser (Debian's chromium driven by
 * playwright-core), against the service started the two ways the README gives: the build
 * (`node dist/main.js`) and `npm start` (ts-node). For each: open /docs, authorize with a real API
 * key, "Try it out" on POST /assistant/create with the default example, Execute, and read the
 * 200/201 response the page shows. A blank page, a console error or a page error fails the run.
 *
 *   npm run build && npm run test:browser
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium; SERVICE_DIST overrides the build directory (dist).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = resolve(ROOT, process.env.SERVICE_DIST ?? 'dist');
const ADMIN_KEY = 'browser-test-admin-key-0123456789abcdef';
const BOOT_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

interface Mode {
  name: string;
  command: string;
  args: string[];
}

const MODES: Mode[] = [
  { name: 'node dist/main.js', command: process.execPath, args: [join(DIST, 'main.js')] },
  { name: 'npm start (ts-node)', command: 'npm', args: ['start', '--silent'] },
];

/** Every service this script started, each the leader of its own process group. */
const children = new Set<ChildProcess>();
/** The services' SQLite files. */
const dataDir = mkdtempSync(join(tmpdir(), 'vac-browser-'));

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // npm start runs sh → ts-node; the negative pid reaches the whole group.
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  // Whatever the leader left behind in its group.
  signalGroup(child, 'SIGKILL');
  children.delete(child);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) signalGroup(child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  });
}
process.once('exit', () => {
  for (const child of children) signalGroup(child, 'SIGKILL');
});

async function startService(
  mode: Mode,
  dataDir: string,
): Promise<{ base: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  let output = '';
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    SQLITE_PATH: join(dataDir, `${port}.sqlite`),
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
    TS_NODE_TRANSPILE_ONLY: 'true',
  };
  const child = spawn(mode.command, mode.args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  for (;;) {
    let problem: string | undefined;
    if (child.exitCode !== null) problem = 'exited during boot';
    else if (Date.now() > deadline) problem = `did not answer /health in ${BOOT_TIMEOUT_MS} ms`;
    if (problem) {
      await stop(child);
      throw new Error(`${mode.name} ${problem}:\n${output}`);
    }
    const up = await fetch(`${base}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { base, child, output: () => output };
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function createApiKey(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/create-key`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ user_name: 'Browser', user_email: `browser-${Date.now()}@example.com` }),
  });
  const body = (await res.json()) as { data?: { api_key?: string } };
  if (res.status !== 200 || !body.data?.api_key)
    throw new Error(`create-key: ${res.status} ${JSON.stringify(body)}`);
  return body.data.api_key;
}

/** The whole path a user clicks through; returns the problems seen (none when it worked). */
async function tryItOut(
  browser: Browser,
  base: string,
  apiKey: string,
): Promise<{ problems: string[]; code?: string }> {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const problems: string[] = [];
  let code: string | undefined;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  try {
    await page.goto(`${base}/docs`, { waitUntil: 'load' });
    // A blank page (the init script failed to parse) never shows the operations.
    await page
      .locator('.swagger-ui .opblock')
      .first()
      .waitFor()
      .catch(() => problems.push('blank page: /docs shows no operations'));
    if (problems.length > 0) return { problems };

    await page.locator('.swagger-ui .btn.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(apiKey);
    await page.locator('.modal-ux .auth-btn-wrapper .btn.authorize').first().click();
    await page.locator('.modal-ux .btn-done').first().click();

    const operation = page.locator('.opblock-post', {
      has: page.locator('[data-path="/assistant/create"]'),
    });
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.btn.execute').click();

    const live = operation.locator('.live-responses-table');
    const status = live.locator('.response .response-col_status').first();
    await status.waitFor();
    code = (await status.innerText()).trim();
    const shown = (
      await live.locator('.response-col_description .highlight-code').first().innerText()
    ).trim();
    if (!/^20[01]\b/.test(code)) problems.push(`Execute answered ${code}: ${shown.slice(0, 300)}`);
    else if (!/"success":\s*true/.test(shown) || !/"assistant_id":/.test(shown))
      problems.push(`the page shows an unexpected response: ${shown.slice(0, 300)}`);
  } catch (error) {
    problems.push(`step failed: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await context.close();
  }
  return { problems, code };
}

async function main(): Promise<void> {
  // launch() gives the browser a fresh, temporary user-data dir and removes it on close.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  let failed = false;
  try {
    for (const mode of MODES) {
      const started = Date.now();
      let problems: string[];
      let code: string | undefined;
      try {
        const service = await startService(mode, dataDir);
        try {
          ({ problems, code } = await tryItOut(
            browser,
            service.base,
            await createApiKey(service.base),
          ));
        } finally {
          await stop(service.child);
        }
      } catch (error) {
        problems = [(error as Error).message];
      }
      if (problems.length > 0) {
        failed = true;
        process.stdout.write(`FAIL ${mode.name}\n  ${problems.join('\n  ')}\n`);
      } else {
        process.stdout.write(
          `ok   ${mode.name}: /docs rendered, authorized, POST /assistant/create executed → ${code} (${Date.now() - started} ms)\n`,
        );
      }
    }
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
