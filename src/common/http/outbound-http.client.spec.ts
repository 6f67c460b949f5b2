import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { AxiosError } from 'axios';
import { CustomerServer } from '../../../test/utils/customer-server';
import { classifyError, OutboundHttpClient } from './outbound-http.client';
import type {
  OutboundHttpFailure,
  OutboundHttpResponse,
  OutboundHttpResult,
} from './outbound-http.types';
import { BLOCKED_ADDRESS_CODE } from './url-guard';
import { signStandardWebhook } from './webhook-signature';

function asResponse(result: OutboundHttpResult): OutboundHttpResponse {
  if (result.kind !== 'response')
    throw new Error(`expected a response, got ${result.kind}: ${result.message}`);
  return result;
}
function asFailure(result: OutboundHttpResult): OutboundHttpFailure {
  if (result.kind === 'response') throw new Error(`expected a failure, got HTTP ${result.status}`);
  return result;
}

describe(OutboundHttpClient.name, () => {
  let server: CustomerServer;
  const client = new OutboundHttpClient({ allowPrivateNetworks: true });
  const strictClient = new OutboundHttpClient({ allowPrivateNetworks: false });

  beforeAll(async () => {
    server = await CustomerServer.start();
  });
  afterAll(async () => {
    client.destroy();
    strictClient.destroy();
    await server.close();
  });

  it('posts JSON with the configured headers and parses a JSON answer', async () => {
    server.respond('/ok', { status: 200, body: { context: { tier: 'gold' } } });
    const body = { caller_number: '+15550001', nested: { a: [1, 2] } };
    const result = asResponse(
      await client.postJson({
        url: server.url('/ok'),
        headers: { Authorization: 'Bearer t0k', 'X-Tenant': 'acme' },
        body,
        timeoutMs: 2000,
      }),
    );
    expect(result).toMatchObject({ status: 200, ok: true, contentType: 'application/json' });
    expect(result.json).toEqual({ ok: true, value: { context: { tier: 'gold' } } });
    expect(result.text).toBe('{"context":{"tier":"gold"}}');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [received] = server.requestsTo('/ok');
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['authorization']).toBe('Bearer t0k');
    expect(received.headers['x-tenant']).toBe('acme');
    expect(received.rawBody).toBe(JSON.stringify(body));
    expect(received.headers['webhook-signature']).toBeUndefined();
  });

  it('never lets configured headers override the JSON content type', async () => {
    server.respond('/ct', { body: {} });
    await client.postJson({
      url: server.url('/ct'),
      headers: { 'content-type': 'text/plain' },
      body: {},
      timeoutMs: 2000,
    });
    expect(server.requestsTo('/ct')[0].headers['content-type']).toBe('application/json');
  });

  it("sends a span of the request's trace, whatever a configured header of that name says", async () => {
    server.respond('/traced', { body: {} });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const send = () =>
      client.postJson({
        url: server.url('/traced'),
        headers: { TraceParent: '00-11111111111111111111111111111111-2222222222222222-01' },
        body: {},
        timeoutMs: 2000,
        traceparent,
      });
    await send();
    await send();
    const sent = server.requestsTo('/traced').map((r) => String(r.headers['traceparent']));
    for (const header of sent)
      expect(header).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    // Each request is a span of its own, a child of the one named: never that span's id again.
    const spans = sent.map((header) => header.split('-')[2]);
    expect(spans).not.toContain('00f067aa0ba902b7');
    expect(new Set(spans).size).toBe(2);
  });

  it('sends no traceparent when the request names no trace', async () => {
    server.respond('/untraced', { body: {} });
    await client.postJson({ url: server.url('/untraced'), body: {}, timeoutMs: 2000 });
    expect(server.requestsTo('/untraced')[0].headers['traceparent']).toBeUndefined();
  });

  it('signs the exact bytes sent with every secret', async () => {
    server.respond('/signed', { body: {} });
    const secrets = [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_' + Buffer.from('second').toString('base64'),
    ];
    await client.postJson({
      url: server.url('/signed'),
      body: { a: 1 },
      timeoutMs: 2000,
      signingSecrets: secrets,
      webhookId: 'msg_fixed',
    });
    const [received] = server.requestsTo('/signed');
    const ts = Number(received.headers['webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(received.headers['webhook-id']).toBe('msg_fixed');
    expect(received.headers['webhook-signature']).toBe(
      secrets.map((s) => signStandardWebhook(s, 'msg_fixed', ts, received.rawBody)).join(' '),
    );
  });

  it('generates a msg_ id when none is given', async () => {
    server.respond('/signed-id', { body: {} });
    await client.postJson({
      url: server.url('/signed-id'),
      body: {},
      timeoutMs: 2000,
      signingSecrets: ['whsec_c2VjcmV0'],
    });
    expect(server.requestsTo('/signed-id')[0].headers['webhook-id']).toMatch(
      /^msg_[A-Za-z0-9_-]{20,}$/,
    );
  });

  it('returns a 500 as a response with ok false', async () => {
    server.respond('/500', { status: 500, body: { error: 'boom' } });
    const result = asResponse(
      await client.postJson({ url: server.url('/500'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({
      status: 500,
      ok: false,
      json: { ok: true, value: { error: 'boom' } },
    });
  });

  it('reports invalid JSON as a parse error with the raw text', async () => {
    server.respond('/bad-json', {
      status: 200,
      body: '{"context": ',
      headers: { 'content-type': 'application/json' },
    });
    const result = asResponse(
      await client.postJson({ url: server.url('/bad-json'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.ok).toBe(true);
    expect(result.text).toBe('{"context": ');
    expect(result.json.ok).toBe(false);
  });

  it('returns a text answer with its content type', async () => {
    server.respond('/text', {
      body: 'hello',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    const result = asResponse(
      await client.postJson({ url: server.url('/text'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      text: 'hello',
    });
    expect(result.json.ok).toBe(false);
  });

  // The servers below answer (or finish their body) minutes later, past the test's own timeout: a
  // client that waited for them fails the test by never returning, whatever the machine's load.
  it('times out a server that answers too late', async () => {
    server.respond('/slow', { delayMs: 120_000, body: {} });
    const result = asFailure(
      await client.postJson({ url: server.url('/slow'), body: {}, timeoutMs: 300 }),
    );
    expect(result.kind).toBe('timeout');
    expect(result.latencyMs).toBeGreaterThanOrEqual(295);
  });

  it('cuts a slow-loris body at the deadline although bytes keep arriving', async () => {
    server.respond('/loris', {
      trickle: { chunk: ' ', intervalMs: 50, count: 2_400 },
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const result = asFailure(
      await client.postJson({ url: server.url('/loris'), body: {}, timeoutMs: 400 }),
    );
    expect(result.kind).toBe('timeout');
    expect(result.latencyMs).toBeGreaterThanOrEqual(395);
  });

  it('refuses a body above the default 1 MB cap', async () => {
    server.respond('/big', {
      body: 'x'.repeat(1024 * 1024 + 10),
      headers: { 'content-type': 'text/plain' },
    });
    const result = asFailure(
      await client.postJson({ url: server.url('/big'), body: {}, timeoutMs: 3000 }),
    );
    expect(result.kind).toBe('too_large');
  });

  it('refuses a streamed body above a per-request cap', async () => {
    server.respond('/big-stream', {
      trickle: { chunk: 'y'.repeat(600), intervalMs: 1, count: 5 },
      body: '',
    });
    const result = asFailure(
      await client.postJson({
        url: server.url('/big-stream'),
        body: {},
        timeoutMs: 3000,
        maxResponseBytes: 1000,
      }),
    );
    expect(result.kind).toBe('too_large');
  });

  it('reads a gzip-compressed JSON answer, and caps it by its decoded size', async () => {
    const json = JSON.stringify({ context: { tier: 'gold' } });
    const compressed = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    server.respond('/gzip', { body: gzipSync(json), headers: compressed });
    const result = asResponse(
      await client.postJson({ url: server.url('/gzip'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.json).toEqual({ ok: true, value: { context: { tier: 'gold' } } });

    server.respond('/gzip-bomb', { body: gzipSync(Buffer.alloc(64 * 1024)), headers: compressed });
    const refused = asFailure(
      await client.postJson({
        url: server.url('/gzip-bomb'),
        body: {},
        timeoutMs: 2000,
        maxResponseBytes: 10_000,
      }),
    );
    expect(refused.kind).toBe('too_large');
  });

  it('does not follow redirects', async () => {
    server.respond('/redirect', {
      status: 302,
      headers: { location: server.url('/target') },
      body: '',
    });
    server.respond('/target', { body: { context: {} } });
    const result = asResponse(
      await client.postJson({ url: server.url('/redirect'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({ status: 302, ok: false });
    expect(server.requestsTo('/target')).toHaveLength(0);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = asFailure(
      await client.postJson({ url: `http://127.0.0.1:${port}/`, body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
  });

  it('reports a dropped connection as a network error', async () => {
    server.respond('/hangup', { hangUp: true });
    const result = asFailure(
      await client.postJson({ url: server.url('/hangup'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.kind).toBe('network');
  });

  it('blocks private addresses when private networks are not allowed, without sending anything', async () => {
    server.respond('/private', { body: {} });
    const result = asFailure(
      await strictClient.postJson({ url: server.url('/private'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.kind).toBe('blocked');
    expect(server.requestsTo('/private')).toHaveLength(0);
  });

  it('blocks at connect time when a name passed the preflight but dials a private address', async () => {
    // The machine's own host name resolves to a loopback/private address on most hosts; the
    // preflight is told it is public (as after a DNS rebinding), so only the agent can stop it.
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0) return;
    const rebinding = new OutboundHttpClient({
      allowPrivateNetworks: false,
      preflightResolve: () => Promise.resolve(['93.184.216.34']),
    });
    const port = new URL(server.baseUrl).port;
    server.respond('/rebind', { body: {} });
    try {
      const result = await rebinding.postJson({
        url: `http://${name}:${port}/rebind`,
        body: {},
        timeoutMs: 2000,
      });
      expect(asFailure(result).kind).toBe('blocked');
      expect(server.requestsTo('/rebind')).toHaveLength(0);
    } finally {
      rebinding.destroy();
    }
  });

  it('dials a name that resolves inside when private networks are allowed', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0) return;
    server.respond('/allowed', { body: {} });
    const port = new URL(server.baseUrl).port;
    const result = await client.postJson({
      url: `http://${name}:${port}/allowed`,
      body: {},
      timeoutMs: 2000,
    });
    expect(asResponse(result).status).toBe(200);
  });

  it('looks a URL up once before its requests for a while, and a refused one again every time', async () => {
    const looked: string[] = [];
    const answers: Record<string, string[]> = {
      'ok.example': ['93.184.216.34'],
      'in.example': ['10.0.0.7'],
    };
    const strict = new OutboundHttpClient({
      allowPrivateNetworks: false,
      preflightResolve: (host) => {
        looked.push(host);
        return Promise.resolve(answers[host] ?? []);
      },
    });
    try {
      // 'ok.example' passes the check; the request itself then fails to connect (no such host).
      for (let i = 0; i < 3; i++)
        await strict.postJson({ url: 'http://ok.example:9/hook', body: {}, timeoutMs: 500 });
      expect(looked.filter((h) => h === 'ok.example')).toHaveLength(1);
      for (let i = 0; i < 2; i++) {
        const result = await strict.postJson({
          url: 'http://in.example/hook',
          body: {},
          timeoutMs: 500,
        });
        expect(asFailure(result).kind).toBe('blocked');
      }
      expect(looked.filter((h) => h === 'in.example')).toHaveLength(2);
    } finally {
      strict.destroy();
    }
  });
});

/**
 * What the client gets from axios's own Node adapter (decoding, the cap, Basic auth, a body cut
 * short, TLS) and how each failure is classified by its code, against raw local servers.
 */
describe(`${OutboundHttpClient.name}: the transport and its failures`, () => {
  type Handler = (req: IncomingMessage, res: ServerResponse) => void;
  let handler: Handler;
  let seen: { headers: IncomingMessage['headers']; body: string }[];
  let base: string;
  const raw = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  const client = new OutboundHttpClient({ allowPrivateNetworks: true });
  const post = (path = '/hook', maxResponseBytes?: number) =>
    client.postJson({ url: `${base}${path}`, body: { a: 'é' }, timeoutMs: 2000, maxResponseBytes });

  beforeAll(async () => {
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen = [];
    handler = (_req, res) => res.end('{}');
  });
  afterAll(async () => {
    client.destroy();
    raw.closeAllConnections();
    await new Promise((resolve) => raw.close(resolve));
  });

  const encoded =
    (encoding: string, body: Buffer): Handler =>
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
      res.end(body);
    };

  it('sends the body with its byte length and says which encodings it reads', async () => {
    asResponse(await post());
    expect(seen[0].body).toBe('{"a":"é"}');
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(seen[0].headers['accept-encoding']).toMatch(/gzip.*deflate.*br/);
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('reads a %s body', async (encoding, compress) => {
    handler = encoded(encoding, compress(Buffer.from('{"context":{"tier":"gold"}}')));
    expect(asResponse(await post()).json).toEqual({
      ok: true,
      value: { context: { tier: 'gold' } },
    });
  });

  it("reports a body that does not decode as a network failure with the decoder's code", async () => {
    handler = encoded('gzip', Buffer.from('not gzip at all'));
    expect(asFailure(await post())).toMatchObject({ kind: 'network', code: 'Z_DATA_ERROR' });
  });

  it('leaves a body of an encoding it does not read as it came', async () => {
    handler = encoded('x-custom', Buffer.from('raw'));
    expect(asResponse(await post()).text).toBe('raw');
  });

  it('answers a 204 that names an encoding with an empty body', async () => {
    handler = (_req, res) => {
      res.writeHead(204, { 'Content-Encoding': 'gzip' });
      res.end();
    };
    expect(asResponse(await post())).toMatchObject({ status: 204, text: '' });
  });

  it('takes a body exactly at the cap and refuses one byte more, by its decoded size', async () => {
    handler = (_req, res) => res.end(Buffer.alloc(100, 'a'));
    expect(asResponse(await post('/hook', 100)).text).toHaveLength(100);
    handler = encoded('gzip', gzipSync(Buffer.alloc(101, 'a')));
    expect(asFailure(await post('/hook', 100))).toMatchObject({
      kind: 'too_large',
      message: 'response body larger than 100 bytes',
    });
  });

  it('sends credentials in the URL as Basic auth', async () => {
    await client.postJson({
      url: `${base.replace('//', '//us%40er:p%3Ass@')}/hook`,
      body: {},
      timeoutMs: 2000,
    });
    expect(seen[0].headers.authorization).toBe(
      `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`,
    );
  });

  it('reports a body cut short by the server as a network failure', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '10' });
      res.write('12345', () => res.socket?.destroy());
    };
    expect(asFailure(await post()).kind).toBe('network');
  });

  it('refuses a protocol other than http and https before sending', async () => {
    const result = asFailure(
      await client.postJson({ url: 'ftp://127.0.0.1/x', body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({ kind: 'blocked', message: 'URL must be an http(s) URL' });
  });

  it('classifies failures by their code: guard, deadline, cap, and the rest as network', () => {
    const withCode = (code: string) => Object.assign(new Error('any words at all'), { code });
    expect(classifyError(withCode(BLOCKED_ADDRESS_CODE), false, 100, 1).kind).toBe('blocked');
    expect(classifyError(new AxiosError('x', 'ECONNABORTED'), false, 100, 1).kind).toBe('timeout');
    expect(classifyError(new AxiosError('x', 'ETIMEDOUT'), false, 100, 1).kind).toBe('timeout');
    const cause = AxiosError.from(withCode('ECONNREFUSED'));
    expect(classifyError(cause, false, 100, 1)).toMatchObject({
      kind: 'network',
      code: 'ECONNREFUSED',
    });
    expect(classifyError(withCode('ENOTFOUND'), false, 100, 1)).toMatchObject({
      kind: 'network',
      code: 'ENOTFOUND',
    });
    expect(
      classifyError(new AxiosError('x', AxiosError.ERR_BAD_RESPONSE), false, 100, 1).kind,
    ).toBe('too_large');
    // Message text decides nothing: the old cap wording without the code is a network failure.
    expect(
      classifyError(new Error('maxContentLength size of 10 exceeded'), false, 100, 1).kind,
    ).toBe('network');
    expect(classifyError(withCode(BLOCKED_ADDRESS_CODE), true, 100, 1).kind).toBe('timeout');
  });
});

/** A certificate for `localhost` made for the run (openssl), and an HTTPS server presenting it. */
describe(`${OutboundHttpClient.name} over TLS`, () => {
  let dir: string;
  let server: https.Server;
  let port: number;
  const servernames: (string | undefined)[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbound-tls-'));
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
        ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      ],
      { stdio: 'ignore' },
    );
    const key = readFileSync(join(dir, 'key.pem'));
    const cert = readFileSync(join(dir, 'cert.pem'));
    server = https.createServer(
      {
        key,
        cert,
        SNICallback: (name, done) => {
          servernames.push(name);
          done(null, undefined);
        },
      },
      (_req, res) => res.end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the host for SNI and refuses a certificate it does not trust, with its code', async () => {
    const client = new OutboundHttpClient({ allowPrivateNetworks: true });
    try {
      const result = await client.postJson({
        url: `https://localhost:${port}/hook`,
        body: {},
        timeoutMs: 2000,
      });
      expect(asFailure(result)).toMatchObject({
        kind: 'network',
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
      expect(servernames).toContain('localhost');
    } finally {
      client.destroy();
    }
  });

  it('refuses at connect time over https too, before any TLS, when the name dials inside', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0) return;
    const rebinding = new OutboundHttpClient({
      allowPrivateNetworks: false,
      preflightResolve: () => Promise.resolve(['93.184.216.34']),
    });
    servernames.length = 0;
    try {
      const result = await rebinding.postJson({
        url: `https://${name}:${port}/hook`,
        body: {},
        timeoutMs: 2000,
      });
      expect(asFailure(result).kind).toBe('blocked');
      expect(servernames).toHaveLength(0);
    } finally {
      rebinding.destroy();
    }
  });
});
