import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import axios, {
  AxiosError,
  CanceledError,
  type AxiosAdapter,
  type AxiosRequestConfig,
} from 'axios';
import { ACCEPT_ENCODING, nodeHttpAdapter } from './node-http-adapter';

interface Seen {
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A real local server: each test sets how it answers and reads what it received. Axios's own Node
 * adapter runs the same cases: the outbound client's callers must not tell the two apart.
 */
describe.each<[string, AxiosAdapter | 'http']>([
  ['nodeHttpAdapter', nodeHttpAdapter],
  ["axios's own http adapter (the behaviour matched)", 'http'],
])('%s', (_name, adapter) => {
  let server: Server;
  let base: string;
  let handler: Handler;
  let seen: Seen[];
  const agent = new http.Agent({ keepAlive: true });
  const client = axios.create();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        handler(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen = [];
    handler = (_req, res) => res.end('{}');
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  function post(config: AxiosRequestConfig = {}) {
    return client.request<Buffer>({
      method: 'POST',
      url: `${base}/hook`,
      data: '{"a":"é"}',
      headers: { 'Content-Type': 'application/json' },
      responseType: 'arraybuffer',
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      httpAgent: agent,
      adapter,
      ...config,
    });
  }

  function answer(encoding: string, body: Buffer): Handler {
    return (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
      res.end(body);
    };
  }

  it('sends the body with its byte length, what it can decode and the given headers', async () => {
    const response = await post({ headers: { 'Content-Type': 'application/json', 'X-Key': 'k' } });
    expect(response.status).toBe(200);
    expect(seen[0].body).toBe('{"a":"é"}');
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(seen[0].headers['accept-encoding']).toBe(ACCEPT_ENCODING);
    expect(seen[0].headers['x-key']).toBe('k');
    expect(seen[0].headers['content-type']).toBe('application/json');
  });

  it('keeps an Accept-Encoding the caller set', async () => {
    await post({ headers: { 'Accept-Encoding': 'identity' } });
    expect(seen[0].headers['accept-encoding']).toBe('identity');
  });

  it('returns the body as bytes with the status and headers', async () => {
    handler = (_req, res) => {
      res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Answer': 'yes' });
      res.end('hello');
    };
    const response = await post();
    expect(Buffer.isBuffer(response.data)).toBe(true);
    expect(response.data.toString('utf8')).toBe('hello');
    expect(response.status).toBe(201);
    expect(response.headers['x-answer']).toBe('yes');
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('decodes a %s body and drops its Content-Encoding', async (encoding, compress) => {
    handler = answer(encoding, compress(Buffer.from('{"context":{"tier":"gold"}}')));
    const response = await post();
    expect(response.data.toString('utf8')).toBe('{"context":{"tier":"gold"}}');
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it("reports a body that does not decode, with the decoder's code", async () => {
    handler = answer('gzip', Buffer.from('not gzip at all'));
    const error = await post().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe('Z_DATA_ERROR');
  });

  it('leaves a body of an encoding it does not read as it came', async () => {
    handler = answer('x-custom', Buffer.from('raw'));
    const response = await post();
    expect(response.data.toString('utf8')).toBe('raw');
    expect(response.headers['content-encoding']).toBe('x-custom');
  });

  it('drops the Content-Encoding of a 204, which has no body to decode', async () => {
    handler = (_req, res) => {
      res.writeHead(204, { 'Content-Encoding': 'gzip' });
      res.end();
    };
    const response = await post();
    expect(response.status).toBe(204);
    expect(response.data).toHaveLength(0);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('caps the decoded body, not the bytes on the wire', async () => {
    // 2 MB of zeros is a few KB gzipped: the cap must see the 2 MB.
    handler = answer('gzip', gzipSync(Buffer.alloc(2 * 1024 * 1024)));
    const error = await post({ maxContentLength: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).message).toBe('maxContentLength size of 1048576 exceeded');
    expect((error as AxiosError).code).toBe(AxiosError.ERR_BAD_RESPONSE);
  });

  it('takes a body exactly at the cap', async () => {
    handler = (_req, res) => res.end(Buffer.alloc(100, 'a'));
    const response = await post({ maxContentLength: 100 });
    expect(response.data).toHaveLength(100);
  });

  it('sends credentials in the URL as Basic auth', async () => {
    await post({ url: `${base.replace('//', '//us%40er:p%3Ass@')}/hook` });
    const expected = `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
    expect(seen[0].headers.authorization).toBe(expected);
  });

  it('rejects a status that validateStatus refuses, with the response', async () => {
    handler = (_req, res) => {
      res.statusCode = 503;
      res.end('down');
    };
    const error = await post({ validateStatus: (s) => s < 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe(AxiosError.ERR_BAD_RESPONSE);
    expect((error as AxiosError).response?.status).toBe(503);
  });

  it('is cancelled by a signal aborted before it starts, sending nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await post({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CanceledError);
    expect(seen).toHaveLength(0);
  });

  it('is cancelled by a signal aborted while the body arrives', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '10' });
      res.write('12345');
    };
    const controller = new AbortController();
    const pending = post({ signal: controller.signal }).catch((e: unknown) => e);
    await waitFor(() => seen.length === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(CanceledError);
  });

  it('reports a body cut short by the server', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '10' });
      res.write('12345', () => res.socket?.destroy());
    };
    const error = await post().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).message).toMatch(/aborted/);
  });

  it('reports a refused connection with its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await post({ url: `http://127.0.0.1:${port}/` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe('ECONNREFUSED');
  });

  it('refuses a protocol other than http and https', async () => {
    const error = await post({ url: 'ftp://127.0.0.1/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe(AxiosError.ERR_BAD_REQUEST);
    expect((error as AxiosError).message).toBe('Unsupported protocol ftp:');
  });

  it('sends a request without a body', async () => {
    await post({ method: 'GET', data: undefined });
    expect(seen[0].body).toBe('');
    expect(seen[0].headers['content-length']).toBeUndefined();
  });
});

/** A certificate for `localhost` made for the run (openssl), and an HTTPS server presenting it. */
describe('nodeHttpAdapter over TLS', () => {
  let dir: string;
  let server: https.Server;
  let cert: Buffer;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adapter-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'));
    server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) =>
      res.end(
        JSON.stringify({
          sni: (req.socket as { servername?: string }).servername,
          host: req.headers.host,
        }),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each<[string, AxiosAdapter | 'http']>([
    ['nodeHttpAdapter', nodeHttpAdapter],
    ["axios's own http adapter", 'http'],
  ])(
    '%s: goes through the https agent, naming the host for SNI and in Host',
    async (_name, adapter) => {
      const agent = new https.Agent({ ca: cert });
      const response = await axios.request<Buffer>({
        method: 'POST',
        url: `https://localhost:${port}/hook`,
        data: '{}',
        httpsAgent: agent,
        responseType: 'arraybuffer',
        adapter,
      });
      agent.destroy();
      expect(JSON.parse(response.data.toString('utf8'))).toEqual({
        sni: 'localhost',
        host: `localhost:${port}`,
      });
    },
  );

  it('refuses a certificate the agent does not trust, with its code', async () => {
    const error = await axios
      .request({
        method: 'POST',
        url: `https://localhost:${port}/`,
        data: '{}',
        adapter: nodeHttpAdapter,
        httpsAgent: new https.Agent(),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!done()) throw new Error('condition not met');
}
