/**
 * Swagger UI as a new user meets it, in a real browser (Debian's chromium driven by
 * playwright-core), against the service started the two ways the README gives: the build
 * (`node dist/main.js`) and `npm start` (which builds first). For each: create through the API what the
 * routes' ids need (an assistant, a tool, a strategy, a mapping, a test case, an event
 * subscription), open /docs, authorize with a real
 * API key (the operator key for POST /auth/create-key), and on EVERY POST and PATCH route "Try it
 * out" with the default example as the page shows it (path ids filled), Execute, and read the 2xx
 * response the page shows. The examples' placeholder ids (an assistant to assign, tools to attach)
 * are left as they are: the page itself sends, in their place, the ids its own Execute of
 * `POST /assistant/create` and `POST /tool/create` answered earlier in the run. A blank page, a console error,
 * a page error or any other status fails the run. The build runs as a default install has it, with
 * the address guard on (customer URLs must resolve to public addresses: the examples' example.com
 * hosts are given a public answer by `example-hosts-dns.js`, this machine having no DNS, and the
 * strategy the run creates names one); `npm start` runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true,
 * as README's first run does, its strategy calling a context endpoint on this machine.
 *
 *   npm run build && npm run test:browser
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium; SERVICE_DIST overrides the build directory (dist).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = resolve(ROOT, process.env.SERVICE_DIST ?? 'dist');
const ADMIN_KEY = 'browser-test-admin-key-0123456789abcdef';
/** `npm start` builds the service before it starts it. */
const BOOT_TIMEOUT_MS = 180_000;
const STEP_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;
/**
 * Routes whose path id only a call makes: a replay needs a logged end-call delivery or webhook tool
 * call, which only jobs write (test/e2e/replay covers it). Through the page they must give the
 * documented 404 for the example id, in the envelope.
 */
const NEEDS_A_CALL = new Set(['/logs/replay/{log_id}']);

interface Mode {
  name: string;
  command: string;
  args: string[];
  /** The address guard on (the default): customer URLs only on public addresses. */
  guard: boolean;
}

const MODES: Mode[] = [
  {
    name: 'node dist/main.js, address guard on (a default install)',
    command: process.execPath,
    args: [join(DIST, 'main.js')],
    guard: true,
  },
  {
    name: 'npm start, private networks allowed',
    command: 'npm',
    args: ['start', '--silent'],
    guard: false,
  },
];
/** A customer endpoint a default install accepts (see example-hosts-dns.js). */
const PUBLIC_CONTEXT_URL = 'https://example.com/voice/context';

/** Every service this script started, each the leader of its own process group. */
const children = new Set<ChildProcess>();
/** The services' SQLite files. */
const dataDir = mkdtempSync(join(tmpdir(), 'vac-browser-'));

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // npm start runs sh → nest build, then node; the negative pid reaches the whole group.
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
    ...(mode.guard
      ? { NODE_OPTIONS: `--require ${join(__dirname, 'example-hosts-dns.js')}` }
      : // The strategy the run creates calls a context endpoint on this machine.
        { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
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

interface Prerequisites {
  /** Path parameter → the id of something the run created through the API. */
  ids: Record<string, string>;
}

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, string> };
  if (res.status !== 200)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data ?? {};
}

/** An assistant, a tool, a strategy (calling `contextUrl`) and a mapping, created through the API. */
async function createPrerequisites(
  base: string,
  key: string,
  contextUrl: string,
): Promise<Prerequisites> {
  const assistant = await api(base, key, 'POST', '/assistant/create', {
    assistant_name: 'Browser prerequisite',
    assistant_description: 'd',
    assistant_prompt: 'p',
    assistant_tts_model: 'cartesia',
    assistant_tts_config: { voice_id: 'v' },
  });
  const tool = await api(base, key, 'POST', '/tool/create', {
    tool_name: 'browser_tool',
    tool_description: 'd',
    tool_execution_type: 'static_return',
    tool_execution_config: { value: { ok: true } },
  });
  const strategy = await api(base, key, 'POST', '/inbound_context_strategy/create', {
    strategy_name: 'Browser prerequisite',
    strategy_type: 'webhook',
    strategy_config: { url: contextUrl },
  });
  const mapping = await api(base, key, 'POST', '/inbound/assign', {
    assistant_id: assistant.assistant_id,
    service: 'exotel',
    inbound_config: { phone_number: '+91 80 5555 0000' },
  });
  const testCase = await api(
    base,
    key,
    'POST',
    `/assistant/test-case/create/${assistant.assistant_id}`,
    { name: 'Browser prerequisite', call: {}, expect: {} },
  );
  const subscription = await api(base, key, 'POST', '/event-subscription/create', {
    url: contextUrl,
    events: ['config.changed'],
  });
  return {
    ids: {
      assistant_id: assistant.assistant_id,
      subscription_id: subscription.subscription_id,
      test_case_id: testCase.test_case_id,
      tool_id: tool.tool_id,
      strategy_id: strategy.strategy_id,
      inbound_id: mapping.inbound_id,
      // No entry has this id (see NEEDS_A_CALL).
      log_id: '999999999',
    },
  };
}

/** Every POST and PATCH operation of the served document, in document order. */
async function bodyOperations(base: string): Promise<{ method: string; path: string }[]> {
  const doc = (await (await fetch(`${base}/docs-json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    ['post', 'patch'].filter((method) => item[method]).map((method) => ({ method, path })),
  );
}

async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('.swagger-ui .btn.authorize').first().click();
  const modal = page.locator('.modal-ux');
  const logout = modal.locator('.auth-btn-wrapper button', { hasText: 'Logout' });
  if ((await logout.count()) > 0) await logout.first().click();
  await modal.locator('input').first().fill(key);
  await modal.locator('.auth-btn-wrapper .btn.authorize').first().click();
  await modal.locator('.btn-done').first().click();
}

/**
 * The whole path a user clicks through, on every POST and PATCH route: "Try it out", the default
 * example as shown, path ids filled, Execute; returns the
 * problems seen (none when every route answered 2xx) and the statuses.
 */
async function tryItOut(
  browser: Browser,
  base: string,
  apiKey: string,
  prerequisites: Prerequisites,
): Promise<{ problems: string[]; code?: string }> {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const problems: string[] = [];
  const codes: string[] = [];
  /** Set while a NEEDS_A_CALL route runs: the browser reports its 404 as a console error. */
  let expecting404 = false;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (expecting404 && /status of 404/.test(message.text())) return;
    problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  try {
    // The first page of a fresh browser on a busy machine may take longer than a step.
    await page.goto(`${base}/docs`, { waitUntil: 'load', timeout: BOOT_TIMEOUT_MS });
    // A blank page (the init script failed to parse) never shows the operations.
    await page
      .locator('.swagger-ui .opblock')
      .first()
      .waitFor()
      .catch(() => problems.push('blank page: /docs shows no operations'));
    if (problems.length > 0) return { problems };

    let authorizedAs: string | undefined;
    for (const { method, path } of await bodyOperations(base)) {
      const where = `${method.toUpperCase()} ${path}`;
      try {
        // The operator route takes the operator key; every other route the user's key.
        const key = path === '/auth/create-key' ? ADMIN_KEY : apiKey;
        if (authorizedAs !== key) {
          await authorize(page, key);
          authorizedAs = key;
        }
        const operation = page.locator(`.opblock-${method}`, {
          has: page.locator(`[data-path="${path}"]`),
        });
        await operation.locator('.opblock-summary').first().click();
        await operation.locator('.try-out__btn').click();
        for (const [name, id] of Object.entries(prerequisites.ids)) {
          const input = operation.locator(`tr[data-param-name="${name}"] input`);
          if ((await input.count()) > 0) await input.first().fill(id);
        }
        if (path === '/config/apply') {
          // An apply names the revision it was planned at: the caller's current one, read from
          // the export as a user would just before applying (every route before this one changed it).
          const { revision } = await api(base, apiKey, 'GET', '/config/export');
          const body = operation.locator('textarea.body-param__text');
          const text = await body.inputValue();
          await body.fill(
            text.replace(/"base_revision":\s*"[^"]*"/, `"base_revision": "${revision}"`),
          );
        }
        expecting404 = NEEDS_A_CALL.has(path);
        await operation.locator('.btn.execute').click();
        const live = operation.locator('.live-responses-table');
        const status = live.locator('.response .response-col_status').first();
        await status.waitFor();
        const code = (await status.innerText()).trim();
        const shown = (
          await live.locator('.response-col_description .highlight-code').first().innerText()
        ).trim();
        codes.push(`${where} ${code}`);
        if (NEEDS_A_CALL.has(path)) {
          if (code !== '404' || !/"success":\s*false/.test(shown))
            problems.push(
              `${where}: expected the documented 404, got ${code}: ${shown.slice(0, 300)}`,
            );
        } else if (!/^20[01]\b/.test(code))
          problems.push(`${where}: Execute answered ${code}: ${shown.slice(0, 300)}`);
        else if (!/"success":\s*true/.test(shown))
          problems.push(`${where}: the page shows an unexpected response: ${shown.slice(0, 300)}`);
        // Close it again, so the next operation's locators find one open block.
        await operation.locator('.opblock-summary').first().click();
      } catch (error) {
        problems.push(`${where}: step failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  } finally {
    await context.close();
  }
  return {
    problems,
    code: `${codes.length} POST/PATCH routes → 2xx (${[...NEEDS_A_CALL].join(', ')}: the documented 404)`,
  };
}

async function main(): Promise<void> {
  // The customer's context endpoint the strategy test calls.
  const contextServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ context: { customer_name: 'Asha' } }));
    });
  });
  await new Promise<void>((done) => contextServer.listen(0, '127.0.0.1', done));
  const contextUrl = `http://127.0.0.1:${(contextServer.address() as { port: number }).port}/context`;
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
          const apiKey = await createApiKey(service.base);
          const prerequisites = await createPrerequisites(
            service.base,
            apiKey,
            mode.guard ? PUBLIC_CONTEXT_URL : contextUrl,
          );
          ({ problems, code } = await tryItOut(browser, service.base, apiKey, prerequisites));
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
          `ok   ${mode.name}: /docs rendered, authorized, Try it out with the default example: ${code} (${Date.now() - started} ms)\n`,
        );
      }
    }
  } finally {
    await browser.close();
    contextServer.close();
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
