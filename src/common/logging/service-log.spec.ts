import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { ServiceLog } from './service-log';

interface Line {
  level: number;
  msg: string;
  req: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  err?: { message: string };
  note?: string;
}

describe(ServiceLog.name, () => {
  const lines: Line[] = [];
  const observed: [string, string, number][] = [];
  const log = new ServiceLog({
    level: 'info',
    format: 'json',
    observe: (method, route, status) => observed.push([method, route, status]),
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
  });
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      log.accessLog(req, res, () => {
        const withLog = req as typeof req & { log: Logger; route?: { path: string } };
        withLog.route = { path: '/items/:id' };
        if (req.url === '/logs-through-req') withLog.log.info({ note: 'inside' }, 'handler line');
        res.statusCode = req.url === '/fails' ? 500 : 200;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    lines.length = 0;
    observed.length = 0;
  });

  /** Waits until `n` lines are written (a response's line follows its last byte). */
  const settle = async (n = 1) => {
    for (let i = 0; i < 400 && lines.length < n; i++)
      await new Promise((resolve) => setImmediate(resolve));
  };

  it('writes one line per request with its id, method, URL, status and time, and records it', async () => {
    const res = await fetch(`${base}/items/7?x=1`);
    await settle();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id, method: 'GET', url: '/items/7?x=1' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(observed).toEqual([['GET', '/items/:id', 200]]);
  });

  it("keeps a client's request id when it is a plain token, and replaces any other", async () => {
    const kept = await fetch(`${base}/a`, { headers: { 'X-Request-Id': 'trace.abc-1' } });
    const replaced = await fetch(`${base}/a`, { headers: { 'X-Request-Id': 'bad id\t!' } });
    await settle(2);
    expect(kept.headers.get('x-request-id')).toBe('trace.abc-1');
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.map((l) => l.req.id)).toEqual([
      'trace.abc-1',
      replaced.headers.get('x-request-id'),
    ]);
  });

  it("gives the request a logger whose lines carry the request's id", async () => {
    const res = await fetch(`${base}/logs-through-req`, { method: 'POST' });
    await settle(2);
    const id = res.headers.get('x-request-id');
    expect(lines.map((l) => l.msg)).toEqual(['handler line', 'request completed']);
    expect(lines[0]).toMatchObject({
      note: 'inside',
      req: { id, method: 'POST', url: '/logs-through-req' },
    });
  });

  it('logs a 5xx as an error of the request', async () => {
    await fetch(`${base}/fails`);
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request errored',
      res: { statusCode: 500 },
      err: { message: 'failed with status code 500' },
    });
  });

  it('neither logs nor records the health probes', async () => {
    const res = await fetch(`${base}/health/live`);
    // A request after it: once its line is written, the probe's would have been too.
    await fetch(`${base}/after-probe`);
    await settle();
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(lines.map((l) => l.req.url)).toEqual(['/after-probe']);
    expect(observed).toEqual([['GET', '/items/:id', 200]]);
  });
});
