import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, type TestContext } from '../../utils/create-test-app';

const SCRIPT = join(__dirname, '../../../examples/first-requests.sh');
const run = promisify(execFile);

/**
 * examples/first-requests.sh (docs/api.md "Example requests") against the service, through a proxy
 * that records each request: the whole flow with a real key, and a stop at the first failure, with
 * its message, instead of requests sent on with ids that were never created.
 */
describe('examples/first-requests.sh', () => {
  let ctx: TestContext;
  let proxy: Server;
  let base: string;
  const seen: string[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen(0, '127.0.0.1');
    const app = (ctx.app.getHttpServer().address() as AddressInfo).port;
    proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const upstream = request(
        { host: '127.0.0.1', port: app, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => proxy.close(done));
    await ctx.close();
  });
  beforeEach(() => (seen.length = 0));

  it('creates the assistant, the tool, the strategy and the mapping, each with the ids before it', async () => {
    const { apiKey } = await ctx.newUser();
    const number = `+91 80 ${String(Date.now()).slice(-8, -4)} ${String(Date.now()).slice(-4)}`;
    const { stdout } = await run('bash', [SCRIPT], {
      env: { ...process.env, KEY: apiKey, BASE: base, NUMBER: number },
    });
    const ids =
      /assistant (\S+)\ntool (\S+)\ntool attached\nstrategy (\S+)\ninbound mapping (\S+):/.exec(
        stdout,
      );
    expect(ids).not.toBeNull();
    const [, assistantId, toolId, , inboundId] = ids!;
    expect(seen).toEqual([
      'POST /assistant/create',
      'POST /tool/create',
      `POST /tool/attach/${assistantId}`,
      'POST /inbound_context_strategy/create',
      'POST /inbound/assign',
    ]);
    const details = await ctx
      .http()
      .get(`/inbound/details/${inboundId}`)
      .set('Authorization', `Bearer ${apiKey}`);
    expect(details.body.data).toMatchObject({ assistant_id: assistantId });
    const tools = await ctx
      .http()
      .get(`/assistant/details/${assistantId}`)
      .set('Authorization', `Bearer ${apiKey}`);
    expect(tools.body.data.tool_ids).toEqual([toolId]);
  });

  it('stops at the first failing request with its status and message, sending nothing after it', async () => {
    const failed = await run('bash', [SCRIPT], {
      env: { ...process.env, KEY: 'vac_not-a-real-key', BASE: base },
    }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    expect(failed!.stderr).toMatch(/^POST \/assistant\/create: 401 \S/);
    expect(failed!.stdout).toBe('');
    expect(seen).toEqual(['POST /assistant/create']);
  });
});
