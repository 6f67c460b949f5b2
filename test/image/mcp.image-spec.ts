/**
 * The MCP server of the built service (`node dist/main.js`, embedded mode), through the SDK's own
 * client over Streamable HTTP, as an agent outside the process reaches it: a config key lists the
 * tools and calls `list_assistants` and `plan_config`; a runtime-scope key does not see
 * `apply_config` and cannot call it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerOf, mcpClients } from '../api/mcp-client';
import { assistantBody } from '../fixtures/assistant';
import { openingHoursBundle, openingHoursCreate } from '../fixtures/config-bundle';
import { newUserBody } from '../fixtures/user';
import { freePort } from '../utils/free-port';

const ROOT = resolve(__dirname, '../..');
const ADMIN_KEY = `mcp-image-admin-key-${process.pid}-0123456789abcdef`;

describe('MCP against the built service', () => {
  let dataDir: string;
  let child: ChildProcess;
  let base: string;
  const mcp = mcpClients(() => new URL(`${base}/mcp`), 'image-check');

  const post = async (path: string, bearer: string, body: object) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const newKey = async (scopes?: string[]) =>
    (await post('/auth/create-key', ADMIN_KEY, newUserBody(scopes))).api_key as string;
  const connect = (key: string) => mcp.connect(key);

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    dataDir = mkdtempSync(join(tmpdir(), 'vac-mcp-image-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        PORT: String(port),
        ADMIN_API_KEY: ADMIN_KEY,
        SQLITE_PATH: join(dataDir, 'voice-assistant.sqlite'),
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 240; i++) {
      const up = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (child.exitCode !== null) throw new Error(`dist/main.js exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('the built service did not answer /health');
  });

  afterAll(async () => {
    await mcp.close();
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a config key lists the tools and calls list_assistants and plan_config', async () => {
    const key = await newKey();
    await post('/assistant/create', key, assistantBody());
    const client = await connect(key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_assistants', 'plan_config', 'apply_config']),
    );
    const listed = answerOf(await client.callTool({ name: 'list_assistants', arguments: {} }));
    expect(listed).toMatchObject({ total: 1, items: [{ assistant_name: 'Front desk' }] });
    const bundle = openingHoursBundle();
    const plan = answerOf(await client.callTool({ name: 'plan_config', arguments: { bundle } }));
    expect(plan.changes).toEqual([openingHoursCreate]);
  });

  it('a runtime-scope key does not see apply_config, and calling it is an MCP error', async () => {
    const client = await connect(await newKey(['runtime']));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('list_assistants');
    expect(names).not.toContain('apply_config');
    const refused = await client
      .callTool({ name: 'apply_config', arguments: { bundle: {}, base_revision: 'x' } })
      .then(
        (result) => ({ isError: (result as CallToolResult).isError === true }),
        () => ({ isError: true }),
      );
    expect(refused).toEqual({ isError: true });
  });
});
